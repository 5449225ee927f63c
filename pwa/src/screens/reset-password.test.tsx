/** 'Forgot password?': shown on the sign-in screen for password accounts only; asking for a link; choosing the new password. */
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import { mailText, messages } from "@evoting/shared";
import { json, mockFetch } from "../test/fetch-mock";
import { renderRoute } from "../test/render";
import { LoginPage } from "./LoginPage";
import { ResetPasswordPage } from "./ResetPasswordPage";

const wait = { timeout: 4000 };

describe("Forgot password?", () => {
  test("appears for a password account, not for a date-of-birth one, and carries the matric number", async () => {
    let requiresPassword = false;
    mockFetch({ "POST /api/auth/check-user": () => json({ requiresPassword }) });
    const { router } = renderRoute(LoginPage, "/login");
    const u = userEvent.setup();
    const matric = await screen.findByLabelText("Matriculation Number");
    await u.type(matric, "2021/5570101");
    expect(await screen.findByLabelText("Date of Birth", {}, wait)).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Forgot password?" })).not.toBeInTheDocument();

    requiresPassword = true;
    await u.clear(matric);
    await u.type(matric, "2021/5570102");
    await u.click(await screen.findByRole("link", { name: "Forgot password?" }, wait));
    await waitFor(() => expect(router.state.location.pathname).toBe("/reset-password"));
    expect(router.state.location.search).toEqual({ matric: "2021/5570102" });
  });

  test("asks for a link and says the same whatever the account", async () => {
    const asked: unknown[] = [];
    mockFetch({
      "POST /api/auth/password-reset": ({ body }) => {
        asked.push(JSON.parse(String(body)));
        return json({ message: mailText.resetRequested }, 202);
      },
    });
    renderRoute(() => <ResetPasswordPage matric="2021/55" />, "/reset-password");
    const u = userEvent.setup();
    await u.click(await screen.findByRole("button", { name: "Send Link" }));
    expect(await screen.findByText(messages.matricFormat)).toBeInTheDocument();
    const field = screen.getByLabelText("Matriculation Number");
    await u.clear(field);
    await u.type(field, "2021/5570102");
    await u.click(screen.getByRole("button", { name: "Send Link" }));
    expect(await screen.findByRole("status")).toHaveTextContent(mailText.resetRequested);
    expect(asked).toEqual([{ matricNumber: "2021/5570102" }]);
  });

  test("with the link's token: checks the new password, sets it, and goes back to sign in", async () => {
    const confirmed: unknown[] = [];
    let answer = () => json({ message: mailText.resetLinkInvalid }, 400);
    mockFetch({
      "POST /api/auth/password-reset/confirm": ({ body }) => {
        confirmed.push(JSON.parse(String(body)));
        return answer();
      },
    });
    const { router } = renderRoute(() => <ResetPasswordPage token="tok.mac" />, "/reset-password");
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText("New Password"), "abc");
    await u.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText(messages.passwordTooShort)).toBeInTheDocument();
    await u.clear(screen.getByLabelText("New Password"));
    await u.type(screen.getByLabelText("New Password"), "brand-new-1");
    await u.type(screen.getByLabelText("Confirm Password"), "brand-new-2");
    await u.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText(messages.passwordsDoNotMatch)).toBeInTheDocument();
    expect(confirmed).toEqual([]);

    await u.clear(screen.getByLabelText("Confirm Password"));
    await u.type(screen.getByLabelText("Confirm Password"), "brand-new-1");
    await u.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText(mailText.resetLinkInvalid)).toBeInTheDocument();
    answer = () => json({ message: mailText.resetDone });
    await u.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText(mailText.resetDone)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(confirmed).toEqual([
      { token: "tok.mac", newPassword: "brand-new-1" },
      { token: "tok.mac", newPassword: "brand-new-1" },
    ]);
  });
});
