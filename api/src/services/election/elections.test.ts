/**
 * The current election as every existing route reads it: an installation's election is election
 * 1, its settings name it, and once a newer election exists (or it is declared) what belonged to
 * the older one is shown no more and refused with 409 on any write, while its receipts stay.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  // A batch of 1: each vote is in the tallies (and its receipt list) at its 201.
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const elections = async () => (await t.database.client.execute("SELECT id, title, state FROM elections ORDER BY id")).rows.map((r) => ({ ...r }));

describe("the current election", () => {
  it("is election 1 on a fresh install and follows the settings while open", async () => {
    expect(await elections()).toEqual([{ id: 1, title: "Department Elections", state: "open" }]);
    const settings = await (await t.request("/election", { token: admin })).json();
    const res = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, title: "Union Elections" } });
    expect(res.status).toBe(200);
    expect(await elections()).toEqual([{ id: 1, title: "Union Elections", state: "open" }]);
  });

  it("scopes positions, votes, my votes and results to the newest election; the older one's writes are 409", async () => {
    const old = await t.openElection(admin, ["Ada", "Grace"], "President");
    const voter = await t.createVoter(admin);
    const first = await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: old.position._id, candidateId: old.candidates[0]._id } });
    expect(first.status).toBe(201);

    await t.database.client.execute("UPDATE elections SET state = 'declared' WHERE id = 1");
    await t.database.client.execute("INSERT INTO elections (id, title, subtitle, start_time, end_time, created_at) VALUES (2, 'Next', 'Year two', 0, 1, 0)");
    t.deps.ballotRules.invalidate();

    expect(await (await t.request("/vote/positions", { token: voter.token })).json()).toEqual([]);
    expect(await (await t.request("/vote/my-votes", { token: voter.token })).json()).toEqual([]);
    expect((await (await t.request("/vote/results", { token: admin })).json()).results).toEqual([]);
    const page = await (await t.request("/admin/voters", { token: admin })).json();
    expect(page.items[0].hasVoted).toBe(false);

    const refused = [
      await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: old.position._id, candidateId: old.candidates[1]._id } }),
      await t.request(`/admin/positions/${old.position._id}`, { method: "PATCH", token: admin, json: { title: "Changed" } }),
      await t.request(`/admin/positions/${old.position._id}`, { method: "DELETE", token: admin }),
      await t.request(`/admin/candidates/${old.candidates[1]._id}`, { method: "DELETE", token: admin }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(409);
      expect((await res.json()).message).toBe(messages.electionDeclared);
    }
    const form = new FormData();
    form.set("name", "Linus");
    form.set("positionId", old.position._id);
    const added = await t.request("/admin/candidates", { method: "POST", token: admin, body: form });
    expect(added.status).toBe(409);
    expect((await t.database.client.execute("SELECT count(*) AS n FROM candidates")).rows[0].n).toBe(2);

    // The new election's position takes the same voter's vote: one vote per position per election.
    const next = await t.openElection(admin, ["Linus"], "President");
    expect((await t.database.client.execute({ sql: "SELECT election_id FROM positions WHERE id = ?", args: [next.position._id] })).rows[0].election_id).toBe(2);
    const again = await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: next.position._id, candidateId: next.candidates[0]._id } });
    expect(again.status).toBe(201);
    expect(await (await t.request("/vote/my-votes", { token: voter.token })).json()).toHaveLength(1);

    // The old election's receipts are still published from its ballots.
    t.clock.advance(2 * 3_600_000);
    const receipts = await (await t.request(`/vote/receipts?positionId=${old.position._id}`, { token: voter.token })).json();
    expect(receipts.receipts).toEqual([(await first.json()).receipt]);
    // A voter who voted in any election stays on record: deleting them is refused.
    const deleted = await t.request(`/admin/voters/${page.items[0]._id}`, { method: "DELETE", token: admin });
    expect(deleted.status).toBe(409);
  });

  it("refuses every write to positions, candidates, settings and stations while the current election is declared", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada"], "President");
    await t.database.client.execute("UPDATE elections SET state = 'declared' WHERE id = 1");
    const settings = await (await t.request("/election", { token: admin })).json();
    const writes = [
      await t.request("/admin/positions", { method: "POST", token: admin, json: { title: "Treasurer", startTime: settings.startTime, endTime: settings.endTime } }),
      await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { title: "Changed" } }),
      await t.request(`/admin/candidates/${candidates[0]._id}`, { method: "DELETE", token: admin }),
      await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, title: "Changed" } }),
      await t.request("/admin/stations", { method: "POST", token: admin, json: { name: "Library" } }),
    ];
    expect(writes.map((r) => r.status)).toEqual([409, 409, 409, 409, 409]);
    expect((await t.database.client.execute("SELECT count(*) AS n FROM stations")).rows[0].n).toBe(0);
    expect((await (await t.request("/admin/positions", { token: admin })).json()).map((p: { title: string }) => p.title)).toEqual(["President"]);
  });
});
