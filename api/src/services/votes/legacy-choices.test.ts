/** Participations sealed before fixed-length sealing are re-sealed at the fixed length and still read. */
import { afterEach, beforeEach, expect, it } from "vitest";
import { seal } from "../../security/keys.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { resealLegacyChoices } from "./legacy-choices.ts";

let t: TestApp;
beforeEach(async () => (t = await createTestApp()));
afterEach(async () => t.close());

it("re-seals old participations at the one length of new ones, keeping each voter's choice", async () => {
  const admin = await t.adminToken();
  const { position, candidates } = await t.openElection(admin, ["Al", "Bartholomew Montgomery-Featherstonehaugh III"]);
  const fresh = await t.createVoter(admin);
  expect((await t.request("/vote", { method: "POST", token: fresh.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);
  // Two voters whose participations were written by the old code: {candidateId, candidateName}, unpadded.
  const old = [await t.createVoter(admin), await t.createVoter(admin)];
  for (const [i, v] of old.entries()) {
    const id = String((await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [v.matricNumber] })).rows[0].id);
    const c = candidates[i];
    await t.database.client.execute({
      sql: "INSERT INTO participations (voter_id, position_id, sealed_choice) VALUES (?, ?, ?)",
      args: [id, position._id, seal(t.deps.keys, JSON.stringify({ candidateId: c._id, candidateName: c.name }), `choice:${id}:${position._id}`)],
    });
  }
  const lengths = async () => (await t.database.client.execute("SELECT DISTINCT length(sealed_choice) AS n FROM participations")).rows.map((r) => Number(r.n));
  expect((await lengths()).length).toBe(3); // the old rows give their names away

  // A row this key cannot read (bench filler, damage) is left alone, not a failed start.
  const odd = await t.createVoter(admin);
  const oddId = String((await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [odd.matricNumber] })).rows[0].id);
  await t.database.client.execute({ sql: "INSERT INTO participations (voter_id, position_id, sealed_choice) VALUES (?, ?, 'x.y.z')", args: [oddId, position._id] });

  expect(await resealLegacyChoices(t.database, t.deps.keys)).toBe(2);
  expect((await lengths()).filter((n) => n !== "x.y.z".length)).toHaveLength(1); // every real row: one length
  expect(await resealLegacyChoices(t.database, t.deps.keys)).toBe(0); // once is enough
  for (const [i, v] of old.entries()) {
    const mine = await (await t.request("/vote/my-votes", { token: v.token })).json();
    expect(mine).toEqual([{ positionId: position._id, candidateId: candidates[i]._id, candidateName: candidates[i].name }]);
  }
});
