/** Notify Voters: the count before sending, the confirm dialog, progress and replies, the outbox, observers read-only. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, test } from "vitest";
import { mailText, type NotificationsAnswer, type UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderRoute } from "../../test/render";
import { session } from "../../auth/session";
import { NotifyVotersPage } from "./NotifyVotersPage";

const admin: UserProfile = { _id: "a1", name: "Admin", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true };
const observer: UserProfile = { ...admin, _id: "o1", name: "Olu", role: "observer" };
afterEach(() => session.clear());
const wait = { timeout: 8000 };

const outbox: NotificationsAnswer["delivery"] = {
  mode: "outbox",
  dir: "/srv/evoting/data/outbox",
  messages: [{ file: "00000001.eml", to: "ada@uniport.edu.ng", kind: "password-reset", sentAt: "2026-03-02T09:00:00.000Z" }],
};

test("shows who will receive it before sending, asks first, then follows the send's delivery", async () => {
  session.signIn("token-123456789012345678901", admin);
  let sends: NotificationsAnswer["sends"] = [];
  const posted: unknown[] = [];
  const counts: string[] = [];
  mockFetch({
    "GET /api/admin/notifications": () => json({ sends, delivery: outbox }),
    "GET /api/admin/voters/groups": () => json({ groups: [{ name: "300L", voters: 40 }, { name: "400L", voters: 30 }] }),
    "GET /api/admin/notifications/recipients": ({ url }) => {
      const q = new URL(url, "http://localhost").searchParams;
      counts.push(`${q.get("kind")}:${q.get("groups")}`);
      return json({ recipients: q.get("groups") === "300L" ? 1 : q.get("kind") === "reminder" ? 12 : 57 });
    },
    "POST /api/admin/notifications": ({ body }) => {
      posted.push(JSON.parse(String(body)));
      sends = [
        {
          id: "s1",
          kind: "reminder",
          groups: ["300L"],
          createdAt: "2026-03-02T09:00:00.000Z",
          createdBy: "Admin (0000/5570000)",
          recipients: 1,
          queued: 0,
          sent: 0,
          failed: 1,
          lastFailure: "550 5.1.1 No such user here",
        },
      ];
      return json({ id: "s1", recipients: 1 }, 202);
    },
  });
  renderRoute(NotifyVotersPage, "/admin/notifications");
  const u = userEvent.setup();
  expect(await screen.findByText("Nothing sent yet.", {}, wait)).toBeInTheDocument();
  await waitFor(() => expect(screen.getByTestId("notify-recipients")).toHaveTextContent("57 voters will receive it."), wait);

  await u.click(screen.getByRole("radio", { name: /Reminder/ }));
  await waitFor(() => expect(screen.getByTestId("notify-recipients")).toHaveTextContent("12 voters will receive it."));
  await u.click(await screen.findByRole("checkbox", { name: "300L" }));
  await waitFor(() => expect(screen.getByTestId("notify-recipients")).toHaveTextContent("1 voter will receive it."));
  expect(counts).toContain("reminder:300L");

  await u.click(screen.getByRole("button", { name: "Send" }));
  const dialog = await screen.findByRole("dialog", { name: "Send Notice" });
  expect(dialog).toHaveTextContent("Send the reminder to 1 voter in 300L?");
  expect(posted).toEqual([]);
  await u.click(within(dialog).getByRole("button", { name: "Send" }));
  expect(await screen.findByText(mailText.notificationQueued(1))).toBeInTheDocument();
  expect(posted).toEqual([{ kind: "reminder", groups: ["300L"] }]);

  const row = await screen.findByRole("listitem", { name: /^Reminder of / }, wait);
  expect(within(row).getByText("1 failed")).toBeInTheDocument();
  expect(within(row).getByText("550 5.1.1 No such user here")).toBeInTheDocument();
  expect(within(row).getByRole("progressbar")).toHaveAttribute("value", "1");
  // The embedded default: where the files are, and the newest ones.
  expect(screen.getByText("/srv/evoting/data/outbox")).toBeInTheDocument();
  expect(screen.getByText("ada@uniport.edu.ng")).toBeInTheDocument();
});

test("a kind the election does not allow says why and cannot be sent", async () => {
  session.signIn("token-123456789012345678901", admin);
  mockFetch({
    "GET /api/admin/notifications": () => json({ sends: [], delivery: { mode: "smtp" } }),
    "GET /api/admin/voters/groups": () => json({ groups: [] }),
    "GET /api/admin/notifications/recipients": ({ url }) =>
      url.includes("kind=results") ? json({ message: mailText.resultsNotDeclared }, 409) : json({ recipients: 3 }),
  });
  renderRoute(NotifyVotersPage, "/admin/notifications");
  const u = userEvent.setup();
  await waitFor(() => expect(screen.getByTestId("notify-recipients")).toHaveTextContent("3 voters will receive it."), wait);
  await u.click(screen.getByRole("radio", { name: /Results/ }));
  expect(await screen.findByText(mailText.resultsNotDeclared)).toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  expect(screen.getByText("Messages go to the mail server set by SMTP_URL.")).toBeInTheDocument();
});

test("observers see the sends but no way to send", async () => {
  session.signIn("token-123456789012345678901", observer);
  mockFetch({
    "GET /api/admin/notifications": () => json({ sends: [], delivery: outbox }),
  });
  renderRoute(NotifyVotersPage, "/admin/notifications");
  expect(await screen.findByText("Nothing sent yet.", {}, wait)).toBeInTheDocument();
  expect(screen.getByText("You are observing: sending is for administrators.")).toBeInTheDocument();
  expect(screen.queryByRole("button", { name: "Send" })).not.toBeInTheDocument();
  expect(screen.queryByRole("radio")).not.toBeInTheDocument();
});
