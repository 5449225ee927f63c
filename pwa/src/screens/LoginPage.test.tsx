import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import type { LoginResponse } from "@evoting/shared";
import { deferred, json, mockFetch } from "../test/fetch-mock";
import { renderRoute } from "../test/render";
import { session } from "../auth/session";
import { LoginPage } from "./LoginPage";

const voter: LoginResponse = {
  token: "voter-token",
  role: "voter",
  expiresAt: "2030-01-01T00:00:00.000Z",
  user: { _id: "v1", name: "Chidi", role: "voter", matricNumber: "2021/5570101", email: null, hasPassword: false },
};
const admin: LoginResponse = {
  ...voter,
  token: "admin-token",
  role: "admin",
  user: { ...voter.user, _id: "a1", name: "Ada", role: "admin", matricNumber: "0000/5570000", hasPassword: true },
};

const button = () => screen.getByRole("button", { name: /^(Login|Logging in\.\.\.)$/ });
const wait = { timeout: 2000 };

describe("LoginPage", () => {
  test("the button stays disabled until the method is known; one checking text shows meanwhile", async () => {
    const answer = deferred<Response>();
    mockFetch({ "POST /api/auth/check-user": () => answer.promise });
    renderRoute(LoginPage, "/login");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Matriculation Number"), "2021/5570101");
    expect(button()).toBeDisabled();
    expect(await screen.findByText("Checking user...", {}, wait)).toBeInTheDocument();
    // One status at a time, not 'Checking user...' above 'Checking authentication method...'.
    expect(screen.queryByText("Checking authentication method...")).not.toBeInTheDocument();
    expect(screen.getAllByRole("status")).toHaveLength(1);
    expect(button()).toBeDisabled();
    answer.resolve(json({ requiresPassword: false }));
    expect(await screen.findByLabelText("Date of Birth")).toBeInTheDocument();
    expect(screen.queryByText("Checking user...")).not.toBeInTheDocument();
    expect(button()).toBeEnabled();
  });

  test("password accounts: field, note, header text; required message; admin goes to /admin", async () => {
    const fetch = mockFetch({
      "POST /api/auth/check-user": () => json({ requiresPassword: true }),
      "POST /api/auth/login": () => json(admin),
    });
    const { router } = renderRoute(LoginPage, "/login");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Matriculation Number"), "0000/5570000");
    const password = await screen.findByLabelText("Password", {}, wait);
    expect(screen.getByText("This account requires password authentication")).toBeInTheDocument();
    expect(screen.getByText("Enter your matriculation number and password")).toBeInTheDocument();
    expect(screen.queryByLabelText("Date of Birth")).not.toBeInTheDocument();

    await user.click(button());
    expect(await screen.findByText("Password is required")).toBeInTheDocument();

    await user.type(password, "s3cret!");
    await user.click(button());
    await waitFor(() => expect(router.state.location.pathname).toBe("/admin"));
    const loginCall = fetch.mock.calls.find(([url]) => String(url).endsWith("/auth/login"))!;
    expect(JSON.parse(loginCall[1]!.body as string)).toEqual({ matricNumber: "0000/5570000", password: "s3cret!" });
    expect(session.token()).toBe("admin-token");
    expect(await screen.findByText("Login successful!")).toBeInTheDocument();
  });

  test("date-of-birth accounts: 8-digit rules, integer payload, 'Logging in...', voter goes to /", async () => {
    const pending = deferred<Response>();
    const fetch = mockFetch({
      "POST /api/auth/check-user": () => json({ requiresPassword: false }),
      "POST /api/auth/login": () => pending.promise,
    });
    const { router } = renderRoute(LoginPage, "/login");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Matriculation Number"), "2021/5570101");
    const dob = await screen.findByLabelText("Date of Birth", {}, wait);
    expect(dob).toHaveAttribute("maxlength", "8");
    expect(dob).toHaveAttribute("placeholder", "YYYYMMDD");
    expect(screen.getByText("This account uses date of birth authentication")).toBeInTheDocument();
    expect(screen.getByText("Enter your matriculation number and date of birth")).toBeInTheDocument();

    await user.click(button());
    expect(await screen.findByText("Date of birth is required")).toBeInTheDocument();
    await user.type(dob, "2003041");
    await user.click(button());
    expect(await screen.findByText("Must be 8 digits in format YYYYMMDD (e.g., 20020515)")).toBeInTheDocument();

    await user.type(dob, "5");
    await user.click(button());
    expect(await screen.findByRole("button", { name: "Logging in..." })).toBeDisabled();
    const loginCall = fetch.mock.calls.find(([url]) => String(url).endsWith("/auth/login"))!;
    expect(JSON.parse(loginCall[1]!.body as string)).toEqual({ matricNumber: "2021/5570101", dateOfBirth: 20030415 });
    pending.resolve(json(voter));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(JSON.parse(localStorage.getItem("user")!)).toMatchObject({ name: "Chidi" });
  });

  test("a 404 shows 'User not found'; a malformed number shows the format message on blur", async () => {
    mockFetch({ "POST /api/auth/check-user": () => json({ message: "User not found" }, 404) });
    renderRoute(LoginPage, "/login");
    const user = userEvent.setup();
    const matric = await screen.findByLabelText("Matriculation Number");
    await user.type(matric, "2020/5570999");
    expect(await screen.findByText("User not found", {}, wait)).toBeInTheDocument();
    expect(button()).toBeDisabled();

    await user.clear(matric);
    await user.type(matric, "2020-5570");
    await user.tab();
    expect(await screen.findByText("Must be in format YYYY/5570XXX (e.g., 2020/5570123)")).toBeInTheDocument();
    expect(screen.queryByText("User not found")).not.toBeInTheDocument();
  });

  test("a refused login shows the server's message, else 'Login failed'", async () => {
    let status = 401;
    mockFetch({
      "POST /api/auth/check-user": () => json({ requiresPassword: true }),
      "POST /api/auth/login": () => (status === 401 ? json({ message: "Invalid matriculation number or credentials" }, 401) : new Response("", { status: 502 })),
    });
    const { router } = renderRoute(LoginPage, "/login");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Matriculation Number"), "0000/5570000");
    await user.type(await screen.findByLabelText("Password", {}, wait), "nope");
    await user.click(button());
    expect(await screen.findByText("Invalid matriculation number or credentials")).toBeInTheDocument();
    status = 502;
    await user.click(button());
    expect(await screen.findByText("Login failed")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(session.isAuthenticated()).toBe(false);
  });
});
