import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { auditDatabase } from "./audit.ts";

let t: TestApp;
beforeEach(async () => (t = await createTestApp()));
afterEach(async () => t.close());

it("passes on a consistent database and names what a tampered one gets wrong", async () => {
  const admin = await t.adminToken();
  const { position, candidates } = await t.openElection(admin);
  for (let i = 0; i < 3; i++) {
    const v = await t.createVoter(admin);
    await t.request("/vote", { method: "POST", token: v.token, json: { positionId: position._id, candidateId: candidates[i % 2]._id } });
  }
  const good = await auditDatabase(t.database);
  expect(good).toMatchObject({ ok: true, ballots: 3, participations: 3, integrity: "ok" });

  await t.database.client.execute({ sql: "UPDATE candidates SET vote_count = vote_count + 5 WHERE id = ?", args: [candidates[0]._id] });
  await t.database.client.execute({ sql: "INSERT INTO ballots (id, position_id, candidate_id, cast_hour) VALUES ('stuffed', ?, ?, 0)", args: [position._id, candidates[1]._id] });
  const bad = await auditDatabase(t.database);
  expect(bad.ok).toBe(false);
  expect(bad.positionMismatches).toEqual([{ positionId: position._id, ballots: 4, pending: 0, participations: 3 }]);
  expect(bad.tallyMismatches.map((m) => m.id).sort()).toEqual([candidates[0]._id, candidates[1]._id].sort());
});
