import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import { messages } from "@evoting/shared";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderRoute } from "../../test/render";
import { PasswordForm } from "./PasswordForm";

const body = (fetch: ReturnType<typeof mockFetch>) => JSON.parse(String(fetch.mock.calls.at(-1)?.[1]?.body ?? "{}"));

describe("PasswordForm", () => {
  test("an account without a password proves its date of birth to set the first one", async () => {
    const fetch = mockFetch({ "PUT /api/auth/password": () => json({ message: messages.updatePasswordSuccess, hasPassword: true }) });
    renderRoute(() => <PasswordForm hasPassword={false} />, "/settings");
    const user = userEvent.setup();
    const dob = await screen.findByLabelText("Date of Birth");
    expect(screen.queryByLabelText("Current Password")).not.toBeInTheDocument();
    expect(dob).toHaveAttribute("maxlength", "8");

    await user.type(screen.getByLabelText("New Password"), "secret-1");
    await user.type(screen.getByLabelText("Confirm Password"), "secret-1");
    await user.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText(messages.currentDobRequired)).toBeInTheDocument();
    await user.type(dob, "2002051");
    await user.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText(messages.dobFormat)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();

    await user.type(dob, "5");
    await user.click(screen.getByRole("button", { name: "Update Password" }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(body(fetch)).toEqual({ currentPassword: "20020515", newPassword: "secret-1" });
  });

  test("an account with a password gives its current password", async () => {
    const fetch = mockFetch({ "PUT /api/auth/password": () => json({ message: messages.updatePasswordSuccess, hasPassword: true }) });
    renderRoute(() => <PasswordForm hasPassword />, "/settings");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Current Password"), "old-secret");
    expect(screen.queryByLabelText("Date of Birth")).not.toBeInTheDocument();
    await user.type(screen.getByLabelText("New Password"), "secret-1");
    await user.type(screen.getByLabelText("Confirm Password"), "secret-1");
    await user.click(screen.getByRole("button", { name: "Update Password" }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(body(fetch)).toEqual({ currentPassword: "old-secret", newPassword: "secret-1" });
  });
});
