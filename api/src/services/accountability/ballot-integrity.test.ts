/**
 * Someone with write access to the database file but not the key (the operator of a separate
 * libSQL server, anyone on the database host) moves ballots from one candidate to another and
 * adjusts the tallies to match, or edits a single ballot row. The check that runs with the key
 * (`npm run audit`, the Admin Panel, every close) must catch both.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { runAudit } from "../../scripts/audit.ts";
import { createLogger } from "../../log.ts";

let t: TestApp;
// A batch of 1: these tests read each vote in the tallies as soon as it is applied.
beforeEach(async () => (t = await createTestApp({ ballotBatch: 1 })));
afterEach(async () => t.close());

async function castAliceFourBobTwo() {
  const admin = await t.adminToken();
  const { position, candidates } = await t.openElection(admin, ["Alice", "Bob"]);
  const [alice, bob] = candidates;
  const voters = [];
  for (let i = 0; i < 6; i++) {
    const v = await t.createVoter(admin);
    const res = await t.request("/vote", { method: "POST", token: v.token, json: { positionId: position._id, candidateId: i < 4 ? alice._id : bob._id } });
    expect(res.status).toBe(201);
    voters.push(v);
  }
  await t.deps.mixer.mix();
  return { admin, position, alice, bob, voters };
}

const sql = (text: string, args: (string | number)[] = []) => t.database.client.execute({ sql: text, args });

it("two ballots moved from Alice to Bob with the tallies adjusted: the check fails and names them", async () => {
  const { admin, alice, bob } = await castAliceFourBobTwo();
  expect((await runAudit(t.database, t.deps.keys)).ok).toBe(true);

  const moved = (await sql("SELECT id FROM ballots WHERE candidate_id = ? LIMIT 2", [alice._id])).rows.map((r) => String(r.id));
  for (const id of moved) await sql("UPDATE ballots SET candidate_id = ? WHERE id = ?", [bob._id, id]);
  await sql("UPDATE candidates SET vote_count = 2 WHERE id = ?", [alice._id]);
  await sql("UPDATE candidates SET vote_count = 4 WHERE id = ?", [bob._id]);

  const report = await runAudit(t.database, t.deps.keys);
  expect(report.ok).toBe(false);
  for (const id of moved) expect(report.lines.join("\n")).toContain(id);
  // The same check from the Admin Panel.
  const res = await t.request("/admin/integrity/check", { method: "POST", token: admin });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { ok: boolean; problems: string[] };
  expect(body.ok).toBe(false);
  expect(body.problems.join("\n")).toContain(moved[0]);
});

it("any single edit to a ballot row is caught on its own, even when counts and tallies still add up", async () => {
  const { alice, bob, position } = await castAliceFourBobTwo();
  const a = String((await sql("SELECT id FROM ballots WHERE candidate_id = ? LIMIT 1", [alice._id])).rows[0].id);
  const b = String((await sql("SELECT id FROM ballots WHERE candidate_id = ? LIMIT 1", [bob._id])).rows[0].id);
  // Swap two ballots' choices: every count and tally is unchanged.
  await sql("UPDATE ballots SET candidate_id = ? WHERE id = ?", [bob._id, a]);
  await sql("UPDATE ballots SET candidate_id = ? WHERE id = ?", [alice._id, b]);
  let report = await runAudit(t.database, t.deps.keys);
  expect(report.ok).toBe(false);
  expect(report.lines.join("\n")).toContain(a);
  await sql("UPDATE ballots SET candidate_id = ? WHERE id = ?", [alice._id, a]);
  await sql("UPDATE ballots SET candidate_id = ? WHERE id = ?", [bob._id, b]);
  expect((await runAudit(t.database, t.deps.keys)).ok).toBe(true);

  // A ballot swapped for a forged one under another id (its participation still names the old id).
  await sql("DELETE FROM ballots WHERE id = ?", [a]);
  await sql("INSERT INTO ballots (id, position_id, choice, candidate_id, mac) VALUES ('forged-ballot-id', ?, 'candidate', ?, 'x')", [position._id, alice._id]);
  report = await runAudit(t.database, t.deps.keys);
  expect(report.ok).toBe(false);
  expect(report.lines.join("\n")).toContain("forged-ballot-id");
});

it("a database that is not a file is read and checked in process (a file's check runs in the count thread): the same edit is caught", async () => {
  await t.close();
  t = await createTestApp({ ballotBatch: 1, memory: true });
  expect(t.database.filePath).toBeNull();
  const { alice, bob } = await castAliceFourBobTwo();
  expect((await runAudit(t.database, t.deps.keys)).ok).toBe(true);
  const a = String((await sql("SELECT id FROM ballots WHERE candidate_id = ? LIMIT 1", [alice._id])).rows[0].id);
  await sql("UPDATE ballots SET candidate_id = ? WHERE id = ?", [bob._id, a]);
  const report = await runAudit(t.database, t.deps.keys);
  expect(report.ok).toBe(false);
  expect(report.lines.join("\n")).toContain(a);
});

it("the Admin Panel shows the last check: passed at a time, and who may run it", async () => {
  const { admin } = await castAliceFourBobTwo();
  const res = await t.request("/admin/integrity/check", { method: "POST", token: admin });
  expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  const last = (await (await t.request("/admin/integrity", { token: admin })).json()) as { ok: boolean; at: string; trigger: string };
  expect(last).toMatchObject({ ok: true, trigger: "admin", at: new Date(t.clock.now()).toISOString() });
  await t.request("/admin/users", { method: "POST", token: admin, json: { name: "Watcher", matricNumber: "2019/5570998", role: "observer", password: "observer-pass-1" } });
  const observer = (await t.login("2019/5570998", { password: "observer-pass-1" })).token;
  expect((await t.request("/admin/integrity", { token: observer })).status).toBe(200);
});

it("runs by itself when a position closes", async () => {
  await castAliceFourBobTwo();
  t.clock.advance(3_600_000 + t.deps.config.voteGraceMs + 1);
  await t.deps.integrity.tick();
  const admin = await t.adminToken();
  const last = (await (await t.request("/admin/integrity", { token: admin })).json()) as { ok: boolean; trigger: string };
  expect(last).toMatchObject({ ok: true, trigger: "close" });
});

it("closing the app waits for a check under way: it finishes and is recorded, none outlives the database", async () => {
  const lines: string[] = [];
  const u = await createTestApp({ ballotBatch: 1, config: { log: createLogger("error", { write: (line: string) => void lines.push(line) }) } });
  let closed = false;
  try {
    const admin = await u.adminToken();
    const { position, candidates } = await u.openElection(admin, ["Alice", "Bob"]);
    for (let i = 0; i < 6; i++) {
      const v = await u.createVoter(admin);
      expect((await u.request("/vote", { method: "POST", token: v.token, json: { positionId: position._id, candidateId: candidates[i % 2]._id } })).status).toBe(201);
    }
    // The check's reads and its record's write all land before the database closes.
    const [record] = await Promise.all([u.deps.integrity.run("admin"), u.close().then(() => (closed = true))]);
    expect(record).toMatchObject({ ok: true, trigger: "admin" });
    expect(lines).toEqual([]);
  } finally {
    if (!closed) await u.close();
  }
});

it("an integrity check run on demand while votes, mixer passes and results reads go on: nothing fails, every figure is right", async () => {
  const admin = await t.adminToken();
  const { position, candidates } = await t.openElection(admin, ["Alice", "Bob"]);
  const voters = [];
  for (let i = 0; i < 24; i++) voters.push(await t.createVoter(admin));
  const statuses: number[] = [];
  const checks: { ok: boolean; problems: string[] }[] = [];
  const send = async (path: string, init: Parameters<TestApp["request"]>[1]) => {
    const res = await t.request(path, init);
    statuses.push(res.status);
    return res;
  };
  // Every request at once: each vote's mixer pass and results recompute meets a running check.
  await Promise.all(
    voters.flatMap((v, i) => [
      send("/vote", { method: "POST", token: v.token, json: { positionId: position._id, candidateId: candidates[i % 3 === 0 ? 1 : 0]._id } }),
      send("/vote/results", { token: v.token }),
      ...(i % 4 === 0
        ? [
            send("/admin/integrity/check", { method: "POST", token: admin }).then(async (res) => {
              if (res.status === 200) checks.push((await res.json()) as { ok: boolean; problems: string[] });
            }),
            t.deps.mixer.mix(),
          ]
        : []),
    ]),
  );
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  expect(statuses.filter((s) => s === 201)).toHaveLength(24);
  expect(checks).toHaveLength(6);
  for (const check of checks) expect(check).toMatchObject({ ok: true, problems: [] });
  await t.deps.mixer.mix();
  // The tallies (the results snapshot may lag a busy recompute by design: services/results/results.ts).
  const tallies = await sql("SELECT name, vote_count FROM candidates WHERE position_id = ? ORDER BY name", [position._id]);
  expect(tallies.rows.map((r) => [r.name, r.vote_count])).toEqual([["Alice", 16], ["Bob", 8]]);
  expect((await runAudit(t.database, t.deps.keys)).ok).toBe(true);
});
