/** Create Users: the staff accounts list, disabling one after a confirm dialog, enabling it again. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, test } from "vitest";
import { messages, type StaffAccount, type UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderRoute } from "../../test/render";
import { session } from "../../auth/session";
import { CreateUserPage } from "./CreateUserPage";

const admin: UserProfile = { _id: "a1", name: "Admin", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true };
afterEach(() => session.clear());

test("lists observers and officers; Disable asks first, then signs the account out; Enable brings it back", async () => {
  session.signIn("token-123456789012345678901", admin);
  let accounts: StaffAccount[] = [
    { _id: "o1", name: "Olu Watcher", matricNumber: "2019/5570990", role: "observer", disabled: false },
    { _id: "f1", name: "Fola Officer", matricNumber: "2019/5570991", role: "officer", disabled: true },
  ];
  const calls: string[] = [];
  const set = (id: string, disabled: boolean) => {
    calls.push(`${id}:${disabled ? "disable" : "enable"}`);
    accounts = accounts.map((a) => (a._id === id ? { ...a, disabled } : a));
    return json({ message: disabled ? messages.disableAccountSuccess : messages.enableAccountSuccess });
  };
  mockFetch({
    "GET /api/admin/staff": () => json(accounts),
    "POST /api/admin/staff/o1/disable": () => set("o1", true),
    "POST /api/admin/staff/f1/enable": () => set("f1", false),
  });
  renderRoute(CreateUserPage, "/admin/users");
  const u = userEvent.setup();
  const observer = (await screen.findByText("Olu Watcher", {}, { timeout: 8000 })).closest("li") as HTMLElement;
  expect(within(observer).getByText("Active")).toBeInTheDocument();
  await u.click(within(observer).getByRole("button", { name: "Disable Olu Watcher" }));
  const dialog = await screen.findByRole("dialog", { name: "Disable Account" });
  expect(calls).toEqual([]);
  await u.click(within(dialog).getByRole("button", { name: "Disable Account" }));
  expect(await screen.findByText(messages.disableAccountSuccess)).toBeInTheDocument();
  await waitFor(() => expect(within(screen.getByText("Olu Watcher").closest("li") as HTMLElement).getByText("Disabled")).toBeInTheDocument());

  const officer = screen.getByText("Fola Officer").closest("li") as HTMLElement;
  await u.click(within(officer).getByRole("button", { name: "Enable Fola Officer" }));
  expect(await screen.findByText(messages.enableAccountSuccess)).toBeInTheDocument();
  expect(calls).toEqual(["o1:disable", "f1:enable"]);
});

test("a field's 'is required' goes once the field is filled; the others stay until the next submit", async () => {
  session.signIn("token-123456789012345678901", admin);
  mockFetch({ "GET /api/admin/staff": () => json([]) });
  renderRoute(CreateUserPage, "/admin/users");
  const u = userEvent.setup();
  await u.click(await screen.findByRole("button", { name: "Create User" }));
  expect(await screen.findByText(messages.nameRequired)).toBeInTheDocument();
  expect(screen.getByText(messages.matricRequired)).toBeInTheDocument();
  await u.type(screen.getByLabelText("Name"), "Kemi Alade");
  expect(screen.queryByText(messages.nameRequired)).not.toBeInTheDocument();
  expect(screen.getByLabelText("Name")).not.toHaveAttribute("aria-invalid");
  expect(screen.getByText(messages.matricRequired)).toBeInTheDocument();
});
