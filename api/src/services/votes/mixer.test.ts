/**
 * The ballot mixer (services/votes/mixer.ts): a pending ballot is applied exactly once, also when
 * two processes mix at the same time or the process stops before its pass; one that cannot be
 * unsealed stays pending without holding up the others.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { openDatabase } from "../../db/client.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import type { WriteStatement } from "../../db/writer.ts";
import { replayWal } from "../../test/secrecy-probe.ts";
import { checkTallies } from "../accountability/tally-check.ts";
import { Mixer, pendingBallotStatement } from "./mixer.ts";

let t: TestApp;
/** A mix commit's statement that fills its batch from one JSON argument of unsealed ballots. */
const isMixInsert = (st: WriteStatement) => typeof st !== "string" && st.sql.includes("INSERT INTO temp.mix_batch");
let admin: string;
beforeEach(async () => {
  // No timer pass during a test: passes happen where the test says.
  // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
  t = await createTestApp({ ballotBatch: 1, config: { mixer: { immediate: false, intervalMs: 3_600_000 } } });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

async function state() {
  const rs = await t.database.client.execute(`SELECT (SELECT count(*) FROM ballots) AS ballots, (SELECT count(*) FROM pending_ballots) AS pending,
      (SELECT count(*) FROM participations) AS participations, (SELECT sum(vote_count) FROM candidates) AS tally,
      (SELECT count(*) FROM candidates c WHERE vote_count <> (SELECT count(*) FROM ballots b WHERE b.candidate_id = c.id)) AS bad`);
  return Object.fromEntries(Object.entries(rs.rows[0]).map(([k, v]) => [k, Number(v)]));
}

/** A pending ballot written straight in (a test's own row: no participation precedes it). */
function pendingRow(position: string, record: Parameters<typeof pendingBallotStatement>[2]): WriteStatement {
  const st = pendingBallotStatement(t.deps.keys, position, record);
  if (typeof st === "string") throw new Error("a pending ballot statement has arguments");
  return { ...st, sql: st.sql.replace(" WHERE changes() = 1", "") };
}

async function votes(n: number) {
  const { position, candidates } = await t.openElection(admin, ["Ada", "Grace", "Linus"]);
  for (let i = 0; i < n; i++) {
    const v = await t.createVoter(admin);
    const res = await t.request("/vote", { method: "POST", token: v.token, json: { positionId: position._id, candidateId: candidates[i % 3]._id } });
    expect(res.status).toBe(201);
  }
}

it("answers the vote before its ballot exists, then applies it once in the next pass", async () => {
  await votes(6);
  expect(await state()).toMatchObject({ ballots: 0, pending: 6, participations: 6, tally: 0 });
  expect((await (await t.request("/vote/results", { token: admin })).json()).results[0].totalVotes).toBe(0);
  expect(await t.deps.mixer.mix()).toBe(6);
  expect(await state()).toMatchObject({ ballots: 6, pending: 0, participations: 6, tally: 6, bad: 0 });
  // Results follow the pass (served from a snapshot that may lag a costly recompute briefly).
  const total = async () => (await (await t.request("/vote/results", { token: admin })).json()).results[0].totalVotes as number;
  await expect.poll(total, { timeout: 5_000 }).toBe(6);
  expect(await t.deps.mixer.mix()).toBe(0);
});

it("applies each ballot exactly once when two processes mix at the same moment", async () => {
  await votes(12);
  const other = await openDatabase({ url: `file:${t.database.filePath}`, synchronous: "NORMAL" });
  try {
    const second = new Mixer(other, t.deps.keys, () => {}, { intervalMs: 3_600_000 });
    await Promise.all([t.deps.mixer.mix(), second.mix(), t.deps.mixer.mix(), second.mix()]);
    expect(await state()).toMatchObject({ ballots: 12, pending: 0, participations: 12, tally: 12, bad: 0 });
  } finally {
    await other.writer.drain();
    other.close();
  }
});

it("leaves ballots pending across a stop without a pass, and the next process applies them", async () => {
  await votes(4);
  // A process that dies before its pass: its pending ballots are in the database already.
  const next = await openDatabase({ url: `file:${t.database.filePath}`, synchronous: "NORMAL" });
  try {
    const mixer = new Mixer(next, t.deps.keys, () => {}, { intervalMs: 3_600_000 });
    await mixer.stop(); // a shutdown applies everything pending
    expect(await state()).toMatchObject({ ballots: 4, pending: 0, tally: 4, bad: 0 });
  } finally {
    next.close();
  }
});

it("deletes a pass's pending rows in its last commit, so no commit in the WAL ties its ballots to their votes", async () => {
  await votes(12);
  // The votes' commits into the database file: the WAL then holds the pass alone.
  expect(await t.deps.mixer.checkpoint()).toBe(true);
  const mixer = new Mixer(t.database, t.deps.keys, () => {}, { intervalMs: 3_600_000, maxBatch: 4 });
  // The copy an attacker would take in the milliseconds before the pass's checkpoint.
  vi.spyOn(mixer, "checkpoint").mockResolvedValue(false);
  expect(await mixer.mix()).toBe(12);
  const dir = mkdtempSync(join(tmpdir(), "evoting-mixer-wal-"));
  try {
    const db = join(dir, "live.db");
    copyFileSync(t.database.filePath!, db);
    if (existsSync(`${t.database.filePath}-wal`)) copyFileSync(`${t.database.filePath}-wal`, `${db}-wal`);
    const deltas = await replayWal(db, `${db}-wal`);
    // A pending row leads back to its vote's commit: a mix commit that removed pending rows
    // would tie its ballots to those voters. Three commits of 4 ballots, then one removal of 12.
    const mixing = deltas.filter((d) => d.ballots.length > 0);
    expect(mixing.map((d) => [d.ballots.length, d.pendingRemoved.length])).toEqual([
      [4, 0],
      [4, 0],
      [4, 0],
    ]);
    const removing = deltas.filter((d) => d.pendingRemoved.length > 0);
    expect(removing.map((d) => [d.pendingRemoved.length, d.ballots.length, d.participations.length])).toEqual([[12, 0, 0]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(await state()).toMatchObject({ ballots: 12, pending: 0, participations: 12, tally: 12, bad: 0 });
});

it("counts a ballot once when a pass is cut off before deleting its pending rows, and the next pass deletes them", async () => {
  await votes(6);
  // A crash between the pass's mix commits and its last commit: the ballots and tallies are
  // in, the pending rows still there.
  const submit = t.database.writer.submit.bind(t.database.writer);
  const cut = vi.spyOn(t.database.writer, "submit").mockImplementation((statements, options) => {
    const first = statements[0];
    if (typeof first !== "string" && first.sql.startsWith("DELETE FROM pending_ballots")) return Promise.reject(new Error("killed"));
    return submit(statements, options);
  });
  await expect(t.deps.mixer.mix()).rejects.toThrow("killed");
  cut.mockRestore();
  expect(await state()).toMatchObject({ ballots: 6, pending: 6, participations: 6, tally: 6, bad: 0 });
  // With the key the audit tells applied rows from pending ones; without it, it cannot.
  expect(await checkTallies(t.database, t.deps.keys)).toMatchObject({ ok: true, ballots: 6, pending: 0, appliedPending: 6, participations: 6 });
  expect(await checkTallies(t.database)).toMatchObject({ ok: false, pending: 6, appliedPending: 0 });
  expect(await t.deps.mixer.mix()).toBe(0);
  expect(await state()).toMatchObject({ ballots: 6, pending: 0, participations: 6, tally: 6, bad: 0 });
  expect(await checkTallies(t.database)).toMatchObject({ ok: true, pending: 0, appliedPending: 0 });
});

it("leaves the audit one consistent picture in the middle of a pass and while one commits beside it", async () => {
  await votes(30);
  const mixer = new Mixer(t.database, t.deps.keys, () => {}, { intervalMs: 3_600_000, maxBatch: 5 });
  // After each mix commit of a pass: its ballots are in, its pending rows not yet deleted.
  const submit = t.database.writer.submit.bind(t.database.writer);
  const midPass: Awaited<ReturnType<typeof checkTallies>>[] = [];
  const spy = vi.spyOn(t.database.writer, "submit").mockImplementation(async (statements, options) => {
    const results = await submit(statements, options);
    if (statements.some(isMixInsert)) midPass.push(await checkTallies(t.database, t.deps.keys));
    return results;
  });
  expect(await mixer.mix()).toBe(30);
  spy.mockRestore();
  expect(midPass.map((r) => [r.ok, r.ballots, r.pending, r.appliedPending])).toEqual(
    [5, 10, 15, 20, 25, 30].map((n) => [true, n, 30 - n, n]),
  );

  // Audits started as each mix commit is handed to the writer, so they read while it commits:
  // each reads one snapshot, so none sees a ballot without the pending row it came from, or the reverse.
  await votes(30);
  const audits: ReturnType<typeof checkTallies>[] = [];
  const beside = vi.spyOn(t.database.writer, "submit").mockImplementation((statements, options) => {
    const committed = submit(statements, options);
    if (statements.some(isMixInsert)) audits.push(checkTallies(t.database, t.deps.keys), checkTallies(t.database, t.deps.keys));
    return committed;
  });
  const applied = await mixer.mix();
  beside.mockRestore();
  const reports = await Promise.all(audits);
  expect(applied).toBe(30);
  expect(reports).toHaveLength(12);
  expect(reports.filter((r) => !r.ok)).toEqual([]);
});

it("skips a pending ballot it cannot unseal and applies the rest", async () => {
  await votes(3);
  const position = String((await t.database.client.execute("SELECT id FROM positions")).rows[0].id);
  await t.database.client.execute({ sql: "INSERT INTO pending_ballots (id, position_id, sealed) VALUES ('damaged', ?, 'not.sealed.here')", args: [position] });
  expect(await t.deps.mixer.mix()).toBe(3);
  expect(await state()).toMatchObject({ ballots: 3, pending: 1, tally: 3, bad: 0 });
  expect(await t.deps.mixer.mix()).toBe(0);
});

it("splits a pass into commits of about equal size, never a remainder of one ballot", async () => {
  await votes(9);
  const mixer = new Mixer(t.database, t.deps.keys, () => {}, { intervalMs: 3_600_000, maxBatch: 4 });
  const sizes: number[] = [];
  const submit = t.database.writer.submit.bind(t.database.writer);
  const spy = vi.spyOn(t.database.writer, "submit").mockImplementation((statements, options) => {
    for (const st of statements) {
      if (isMixInsert(st)) sizes.push((JSON.parse(String((st as { args: unknown[] }).args[0])) as unknown[]).length);
    }
    return submit(statements, options);
  });
  expect(await mixer.mix()).toBe(9);
  spy.mockRestore();
  // 9 ballots at most 4 per commit: 3 + 3 + 3, not 4 + 4 + 1.
  expect(sizes).toEqual([3, 3, 3]);
  expect(await state()).toMatchObject({ ballots: 9, pending: 0, tally: 9, bad: 0 });
});

it("applies candidate, 'no' and abstain ballots of several positions in one pass, each tally equal to its ballots", async () => {
  const settings = (await (await t.request("/election", { token: admin })).json()) as object;
  expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, unopposed: "yes-no" } })).status).toBe(200);
  const board = await t.openElection(admin, ["Ada", "Grace"], "Board");
  expect((await t.request(`/admin/positions/${board.position._id}`, { method: "PATCH", token: admin, json: { allowAbstain: true } })).status).toBe(200);
  const lone = await t.openElection(admin, ["Linus"], "Treasurer");
  const choices = [
    [board, { candidateId: board.candidates[0]._id }],
    [board, { candidateId: board.candidates[1]._id }],
    [board, { candidateId: board.candidates[1]._id }],
    [board, { choice: "abstain" }],
    [lone, { candidateId: lone.candidates[0]._id }],
    [lone, { choice: "no" }],
    [lone, { choice: "no" }],
  ] as const;
  for (const [{ position }, choice] of choices) {
    const v = await t.createVoter(admin);
    expect((await t.request("/vote", { method: "POST", token: v.token, json: { positionId: position._id, ...choice } })).status).toBe(201);
  }
  expect(await t.deps.mixer.mix()).toBe(7);
  const rs = await t.database.client.execute(`SELECT p.title, p.no_count, p.abstain_count,
      (SELECT count(*) FROM ballots b WHERE b.position_id = p.id AND b.choice = 'no') AS no_ballots,
      (SELECT count(*) FROM ballots b WHERE b.position_id = p.id AND b.choice = 'abstain') AS abstain_ballots,
      (SELECT group_concat(c.name || '=' || c.vote_count, ',') FROM (SELECT * FROM candidates WHERE position_id = p.id ORDER BY name) c) AS tallies
    FROM positions p ORDER BY p.title`);
  expect(rs.rows.map((r) => ({ ...r }))).toEqual([
    { title: "Board", no_count: 0, abstain_count: 1, no_ballots: 0, abstain_ballots: 1, tallies: "Ada=1,Grace=2" },
    { title: "Treasurer", no_count: 2, abstain_count: 0, no_ballots: 2, abstain_ballots: 0, tallies: "Linus=1" },
  ]);
  expect(await state()).toMatchObject({ ballots: 7, pending: 0, participations: 7, tally: 4, bad: 0 });
});

it("leaves a ballot pending while its candidate is gone, and applies the rest of the commit", async () => {
  await votes(3);
  const position = String((await t.database.client.execute("SELECT id FROM positions")).rows[0].id);
  // A pending ballot for a candidate that no longer exists (deleting one is refused while
  // ballots are pending, so it is written here directly, sealed as a vote's would be).
  await t.database.writer.submit([pendingRow(position, { k: "candidate", c: "gone", b: "b-orphan" })]);
  expect(await t.deps.mixer.mix()).toBe(3);
  expect(await state()).toMatchObject({ ballots: 3, pending: 1, tally: 3, bad: 0 });
});

it("mixes the same way where the writer runs on the caller's thread (a database that is not a file)", async () => {
  const memory = await openDatabase({ url: ":memory:" });
  try {
    await memory.client.execute("INSERT INTO positions (id, title, start_time, end_time, created_at) VALUES ('p', 'Chair', 0, 1, 0)");
    await memory.client.execute("INSERT INTO candidates (id, position_id, name, created_at) VALUES ('c', 'p', 'Ada', 0)");
    for (const b of ["b1", "b2"]) await memory.writer.submit([pendingRow("p", { k: "candidate", c: "c", b })]);
    const mixer = new Mixer(memory, t.deps.keys, () => {}, { intervalMs: 3_600_000 });
    expect(await mixer.mix()).toBe(2);
    const rs = await memory.client.execute("SELECT (SELECT count(*) FROM ballots) AS ballots, (SELECT count(*) FROM pending_ballots) AS pending, (SELECT vote_count FROM candidates) AS tally");
    expect({ ...rs.rows[0] }).toEqual({ ballots: 2, pending: 0, tally: 2 });
  } finally {
    memory.close();
  }
});
