/**
 * An admin can disable an observer's or officer's account: its sessions end at once, it cannot
 * sign in again until enabled, and both are in the audit log. Voters and admins are not
 * staff accounts this can touch.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
beforeEach(async () => (t = await createTestApp()));
afterEach(async () => t.close());

async function staff(admin: string, role: "observer" | "officer", matricNumber: string) {
  const res = await t.request("/admin/users", { method: "POST", token: admin, json: { name: `A ${role}`, matricNumber, role, password: "staff-pass-1" } });
  expect(res.status).toBe(201);
  const { token, user } = await t.login(matricNumber, { password: "staff-pass-1" });
  return { token, id: user._id, matricNumber };
}

it("disables an observer: sessions end, sign-in is refused, audited; enabling lets them back in", async () => {
  const admin = await t.adminToken();
  const observer = await staff(admin, "observer", "2019/5570990");
  expect((await t.request("/admin/audit", { token: observer.token })).status).toBe(200);

  const list = (await (await t.request("/admin/staff", { token: admin })).json()) as { _id: string; role: string; disabled: boolean }[];
  expect(list).toContainEqual(expect.objectContaining({ _id: observer.id, role: "observer", disabled: false }));

  const res = await t.request(`/admin/staff/${observer.id}/disable`, { method: "POST", token: admin });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { message: string }).message).toBe(messages.disableAccountSuccess);
  expect((await t.request("/admin/audit", { token: observer.token })).status).toBe(401);
  const again = await t.request("/auth/login", { method: "POST", json: { matricNumber: observer.matricNumber, password: "staff-pass-1" } });
  expect(again.status).toBe(403);
  expect(((await again.json()) as { message: string }).message).toBe(messages.accountDisabled);
  expect(((await (await t.request("/admin/staff", { token: admin })).json()) as { _id: string; disabled: boolean }[]).find((s) => s._id === observer.id)?.disabled).toBe(true);

  expect((await t.request(`/admin/staff/${observer.id}/enable`, { method: "POST", token: admin })).status).toBe(200);
  expect((await t.login(observer.matricNumber, { password: "staff-pass-1" })).token).toBeTruthy();

  const log = await t.database.client.execute("SELECT action, target FROM audit_log WHERE action IN ('user.disable', 'user.enable') ORDER BY seq");
  expect(log.rows.map((r) => r.action)).toEqual(["user.disable", "user.enable"]);
  expect(String(log.rows[0].target)).toContain(observer.matricNumber);
});

it("disables an officer (their station sign-in ends with their sessions); refuses voters, admins, unknown ids and observers", async () => {
  const admin = await t.adminToken();
  const officer = await staff(admin, "officer", "2019/5570991");
  const observer = await staff(admin, "observer", "2019/5570992");
  const voter = await t.createVoter(admin);
  const voterId = (await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [voter.matricNumber] })).rows[0].id;
  const adminId = (await t.database.client.execute("SELECT id FROM users WHERE role = 'admin'")).rows[0].id;

  expect((await t.request(`/admin/staff/${officer.id}/disable`, { method: "POST", token: admin })).status).toBe(200);
  expect((await t.request("/auth/profile", { token: officer.token })).status).toBe(401);
  expect((await t.request(`/admin/staff/${voterId}/disable`, { method: "POST", token: admin })).status).toBe(404);
  expect((await t.request(`/admin/staff/${adminId}/disable`, { method: "POST", token: admin })).status).toBe(404);
  expect((await t.request("/admin/staff/nobody/disable", { method: "POST", token: admin })).status).toBe(404);
  // Observers read the list but change nothing.
  expect((await t.request(`/admin/staff/${officer.id}/enable`, { method: "POST", token: observer.token })).status).toBe(403);
  expect((await t.request("/auth/profile", { token: voter.token })).status).toBe(200);
});
