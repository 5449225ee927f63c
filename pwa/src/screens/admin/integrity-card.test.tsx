/** The Admin Panel's integrity check card: the last result, and running one now. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, test } from "vitest";
import type { IntegrityStatus, UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderRoute } from "../../test/render";
import { session } from "../../auth/session";
import { AdminPanelPage } from "./AdminPanelPage";

const admin: UserProfile = { _id: "a1", name: "Admin", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true };
afterEach(() => session.clear());

test("shows when the check passed, runs it on request and lists what failed", async () => {
  session.signIn("token-123456789012345678901", admin);
  const passed: IntegrityStatus = { ok: true, at: "2026-03-02T09:00:00.000Z", trigger: "close", problems: [] };
  const failed: IntegrityStatus = { ok: false, at: "2026-03-02T10:00:00.000Z", trigger: "admin", problems: ["Ballot b-1 (position p1) was changed or forged: its MAC does not match"] };
  let runs = 0;
  mockFetch({
    "GET /api/admin/integrity": () => json(passed),
    "POST /api/admin/integrity/check": () => (runs++, json(failed)),
    "GET /api/admin/turnout": () => json({ hourly: [], groups: [] }),
  });
  renderRoute(AdminPanelPage, "/admin");
  expect(await screen.findByText(/Integrity check passed at .* \(when a position closed\)\./, {}, { timeout: 8000 })).toBeInTheDocument();
  await userEvent.setup().click(screen.getByRole("button", { name: "Run Integrity Check" }));
  const status = (await screen.findByText(/Integrity check failed at/)).closest("[role=status]") as HTMLElement;
  expect(within(status).getByText(failed.problems[0])).toBeInTheDocument();
  expect(runs).toBe(1);
});
