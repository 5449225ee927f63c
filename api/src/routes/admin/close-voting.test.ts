/** POST /admin/election/close ('Close voting now'): every open position and the election end now, audited; the grace then runs. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const HOUR = 3_600_000;
const GRACE = 10 * 60_000;

describe("Close voting now", () => {
  it("ends every open position and the election now, audits it, refuses new votes, and the declaration waits for the grace", async () => {
    const settings = await (await t.request("/election", { token: admin })).json();
    const now = t.clock.now();
    const window = { startTime: new Date(now - HOUR).toISOString(), endTime: new Date(now + 8 * HOUR).toISOString() };
    expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, ...window } })).status).toBe(200);
    const president = await t.openElection(admin, ["Ada", "Grace"], "President");
    const later = await t.request("/admin/positions", {
      method: "POST",
      token: admin,
      json: { title: "Treasurer", startTime: new Date(now + HOUR).toISOString(), endTime: new Date(now + 2 * HOUR).toISOString() },
    });
    expect(later.status).toBe(201);
    const voter = await t.createVoter(admin);
    const other = await t.createVoter(admin, "20030303");
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: president.position._id, candidateId: president.candidates[0]._id } })).status).toBe(201);

    const res = await t.request("/admin/election/close", { method: "POST", token: admin });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ message: messages.votingClosed, closedAt: new Date(now).toISOString(), positions: ["President", "Treasurer"] });

    const positions = (await (await t.request("/admin/positions", { token: admin })).json()) as { title: string; startTime: string; endTime: string }[];
    for (const p of positions) {
      expect(Date.parse(p.endTime), p.title).toBe(now);
      expect(Date.parse(p.startTime), p.title).toBeLessThan(now);
    }
    expect(Date.parse((await (await t.request("/election", { token: admin })).json()).endTime)).toBe(now);

    t.clock.advance(1);
    const late = await t.request("/vote", { method: "POST", token: other.token, json: { positionId: president.position._id, candidateId: president.candidates[1]._id } });
    expect(late.status).toBe(403);

    const audit = await (await t.request("/admin/audit?action=election.close", { token: admin })).json();
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0].summary).toContain("2 positions (President, Treasurer)");

    const status = await (await t.request("/admin/elections/current", { token: admin })).json();
    expect(status.closable).toBe(false);
    expect(Date.parse(status.declarableAt)).toBe(now + GRACE);
    expect((await t.request("/admin/election/declare", { method: "POST", token: admin })).status).toBe(409);
    t.clock.advance(GRACE);
    expect((await t.request("/admin/election/declare", { method: "POST", token: admin })).status).toBe(200);
  });

  it("is 409 when nothing is open, changing nothing", async () => {
    const settings = await (await t.request("/election", { token: admin })).json();
    const now = t.clock.now();
    const past = { startTime: new Date(now - 2 * HOUR).toISOString(), endTime: new Date(now - HOUR).toISOString() };
    expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, ...past } })).status).toBe(200);
    const before = (await (await t.request("/admin/audit", { token: admin })).json()).total;
    const res = await t.request("/admin/election/close", { method: "POST", token: admin });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe(messages.nothingToClose);
    expect((await (await t.request("/admin/audit", { token: admin })).json()).total).toBe(before);
  });
});
