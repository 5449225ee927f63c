import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { checkTallies } from "./tally-check.ts";

let t: TestApp;
// A batch of 1: these tests read each vote in the tallies as soon as it is applied.
beforeEach(async () => (t = await createTestApp({ ballotBatch: 1 })));
afterEach(async () => t.close());

it("passes on a consistent database and names what a tampered one gets wrong", async () => {
  const admin = await t.adminToken();
  const { position, candidates } = await t.openElection(admin);
  for (let i = 0; i < 3; i++) {
    const v = await t.createVoter(admin);
    await t.request("/vote", { method: "POST", token: v.token, json: { positionId: position._id, candidateId: candidates[i % 2]._id } });
  }
  const good = await checkTallies(t.database);
  expect(good).toMatchObject({ ok: true, ballots: 3, participations: 3, integrity: "ok" });

  await t.database.client.execute({ sql: "UPDATE candidates SET vote_count = vote_count + 5 WHERE id = ?", args: [candidates[0]._id] });
  await t.database.client.execute({ sql: "INSERT INTO ballots (id, position_id, candidate_id) VALUES ('stuffed', ?, ?)", args: [position._id, candidates[1]._id] });
  const bad = await checkTallies(t.database);
  expect(bad.ok).toBe(false);
  expect(bad.positionMismatches).toEqual([{ positionId: position._id, ballots: 4, pending: 0, participations: 3 }]);
  expect(bad.tallyMismatches.map((m) => m.id).sort()).toEqual([candidates[0]._id, candidates[1]._id].sort());
});

it("recounts the 'no' and 'abstain' tallies, and counts ballots still pending for the mixer", async () => {
  const admin = await t.adminToken();
  const { position } = await t.openElection(admin, ["Ada", "Grace"]);
  await t.database.client.execute({ sql: "UPDATE positions SET abstain_count = 2 WHERE id = ?", args: [position._id] });
  const bad = await checkTallies(t.database);
  expect(bad.ok).toBe(false);
  expect(bad.choiceTallyMismatches).toEqual([{ positionId: position._id, choice: "abstain", stored: 2, counted: 0 }]);

  await t.database.client.execute({ sql: "UPDATE positions SET abstain_count = 0 WHERE id = ?", args: [position._id] });
  // A vote whose ballot the mixer has not applied yet: a participation and a pending ballot.
  const voter = await t.createVoter(admin);
  const id = String((await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [voter.matricNumber] })).rows[0].id);
  await t.database.client.batch(
    [
      { sql: "INSERT INTO participations (voter_id, position_id, sealed_choice) VALUES (?, ?, 'sealed')", args: [id, position._id] },
      { sql: "INSERT INTO pending_ballots (id, position_id, sealed) VALUES ('p1', ?, 'sealed')", args: [position._id] },
    ],
    "write",
  );
  expect(await checkTallies(t.database)).toMatchObject({ ok: true, ballots: 0, pending: 1, participations: 1 });
});
