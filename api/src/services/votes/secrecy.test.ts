/**
 * Ballot secrecy against copies of the database files. Many voters vote, with and
 * without Idempotency-Key (some also send a refused second vote), for candidates whose names
 * differ in length. Then, as an attacker would:
 * - a backup copy: no column of any table that names a voter, nor any value's length, predicts
 *   the voter's choice better than chance (api/src/test/secrecy-probe.ts), and the rows that
 *   record a vote keep no time finer than a ballot's hour;
 * - a live copy of the database and its WAL, replayed commit by commit: no commit adds a
 *   participation together with a ballot; after the mixer's pass the WAL is empty and the
 *   database file holds no byte of the pending ballots it applied (secure_delete).
 * - the declared election's archive (results, sheet, receipt lists) names no voter and lists
 *   receipts sorted, so it adds nothing to tie a voter to a choice.
 * On the storage before fixed-length sealing every one of these failed: a fingerprint shared by all voters
 * of a candidate, sealed choices as long as the candidate's name, participations timed to the
 * millisecond, and one commit per vote holding participation, ballot and tally.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createClient } from "@libsql/client";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupDatabase } from "../../scripts/backup.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { featureScores, replayWal, voterTiedRows } from "../../test/secrecy-probe.ts";

const HOUR = 3_600_000;
const NAMES = ["Al", "Grace Hopper", "Margaret Heafield Hamilton", "Bartholomew Montgomery-Featherstonehaugh III"];
const VOTERS = 96;
/** The mixer runs by hand here, every MIX_EVERY votes, as its timer would under load. */
const MIX_EVERY = 16;
/** The last votes stay pending when the first live copy is taken. */
const UNMIXED = 32;

let t: TestApp;
let dir: string;
const voters = new Map<string, { matric: string; label: string }>();
const order: string[] = [];
let liveBeforeMix: { db: string; wal: string };
let liveAfterMix: { db: string; wal: string };
let backup: string;

function copyLive(name: string) {
  const db = join(dir, `${name}.db`);
  const wal = `${db}-wal`;
  copyFileSync(t.database.filePath!, db);
  if (existsSync(`${t.database.filePath}-wal`)) copyFileSync(`${t.database.filePath}-wal`, wal);
  return { db, wal };
}

beforeAll(async () => {
  // An interval that never fires during the test: passes happen where the test says.
  t = await createTestApp({ config: { mixer: { immediate: false, intervalMs: 3_600_000 } } });
  dir = mkdtempSync(join(tmpdir(), "evoting-secrecy-"));
  const admin = await t.adminToken();
  const { position, candidates } = await t.openElection(admin, NAMES);
  for (let i = 0; i < VOTERS; i++) {
    const voter = await t.createVoter(admin);
    const userId = (await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [voter.matricNumber] })).rows[0].id as string;
    // Pairs of voters share a choice so both halves of the split see every candidate.
    const choice = Math.floor(i / 2) % NAMES.length;
    voters.set(userId, { matric: voter.matricNumber, label: NAMES[choice] });
    order.push(userId);
    const body = { positionId: position._id, candidateId: candidates[choice]._id };
    const vote = (json: object, key?: string) =>
      t.request("/vote", { method: "POST", token: voter.token, json, headers: key ? { "idempotency-key": key } : {} });
    const key = i % 3 === 0 ? undefined : crypto.randomUUID();
    expect((await vote(body, key)).status).toBe(201);
    if (key && i % 4 === 1) expect((await vote(body, key)).status).toBe(201); // a replay
    if (i % 5 === 0) {
      const other = { positionId: position._id, candidateId: candidates[(choice + 1) % NAMES.length]._id };
      expect((await vote(other, crypto.randomUUID())).status).toBe(409);
    }
    if ((i + 1) % MIX_EVERY === 0 && i < VOTERS - UNMIXED) await t.deps.mixer.mix();
  }
  liveBeforeMix = copyLive("before-mix");
  await t.deps.mixer.mix();
  liveAfterMix = copyLive("after-mix");
  // Declared after the close and its grace: the backup holds the archive too.
  t.clock.advance(HOUR + t.deps.config.voteGraceMs + 1);
  expect((await t.request("/admin/election/declare", { method: "POST", token: admin })).status).toBe(200);
  backup = join(dir, "backup.db");
  const result = await backupDatabase(t.database.url, backup);
  expect(result.audit).toMatchObject({ ok: true, ballots: VOTERS, pending: 0, participations: VOTERS });
}, 180_000);

afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a backup copy", () => {
  it("has no column or length, in any table naming a voter, that predicts the choice better than chance", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      const rows = await voterTiedRows(client, voters);
      const tables = new Set(rows.map((r) => r.table));
      // The tables that record a vote are among those examined.
      for (const table of ["participations", "idempotency_keys", "users", "sessions"]) expect(tables.has(table), table).toBe(true);
      const scores = featureScores(rows, order);
      expect(scores.length).toBeGreaterThan(10);
      const leaks = scores.filter((s) => s.accuracy > s.bound).map((s) => `${s.feature}: ${(s.accuracy * 100).toFixed(0)}% > ${(s.bound * 100).toFixed(0)}% (n=${s.n})`);
      expect(leaks).toEqual([]);
    } finally {
      client.close();
    }
  });

  it("keeps no time finer than a ballot's hour on the rows that record a vote", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      for (const table of ["participations", "idempotency_keys", "pending_ballots", "ballots"]) {
        const rs = await client.execute(`SELECT * FROM "${table}"`);
        for (const row of rs.rows) {
          rs.columns.forEach((col, i) => {
            const v = row[i];
            // Epoch milliseconds from 2001 on: a time. Only whole hours may be kept.
            if (typeof v === "number" && v > 1e12) expect(v % HOUR, `${table}.${col}`).toBe(0);
          });
        }
      }
    } finally {
      client.close();
    }
  });

  it("holds a declared election's archive that names no voter and lists receipts in no order but their own", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      const rs = await client.execute("SELECT * FROM election_archives");
      expect(rs.rows).toHaveLength(1);
      const text = JSON.stringify(rs.rows[0], (_, v: unknown) => (v instanceof ArrayBuffer ? Buffer.from(v).toString("utf8") : v));
      for (const [id, v] of voters) {
        expect(text.includes(id), `voter id in the archive`).toBe(false);
        expect(text.includes(v.matric), `matric number in the archive`).toBe(false);
      }
      const record = JSON.parse(String(rs.rows[0].record)) as { receipts: { receipts: string[] }[] };
      expect(record.receipts[0].receipts).toHaveLength(VOTERS);
      expect(record.receipts[0].receipts).toEqual([...record.receipts[0].receipts].sort());
    } finally {
      client.close();
    }
  });
});

describe("a live copy of the database and its WAL", () => {
  it("never shows a participation and a ballot added by the same commit", async () => {
    const deltas = await replayWal(liveBeforeMix.db, liveBeforeMix.wal);
    // The copy before the last pass holds the last votes' commits: participations only.
    const voting = deltas.filter((d) => d.participations.length > 0);
    expect(voting.length).toBeGreaterThan(0);
    // The attack: a commit that adds participations and ballots ties those voters to them.
    const linked = voting.filter((d) => d.ballots.length > 0).reduce((n, d) => n + d.participations.length, 0);
    expect(linked, `${linked} voters share a commit with ballots`).toBe(0);
  });

  it("keeps no trace of the applied pending ballots in the database file (secure_delete)", async () => {
    // The pending ballots as the copy before the pass held them (opened on a scratch copy).
    const scratch = join(dir, "pending-scratch.db");
    copyFileSync(liveBeforeMix.db, scratch);
    if (existsSync(liveBeforeMix.wal)) copyFileSync(liveBeforeMix.wal, `${scratch}-wal`);
    const client = createClient({ url: `file:${scratch}` });
    const sealed = (await client.execute("SELECT sealed FROM pending_ballots")).rows.map((r) => String(r.sealed));
    client.close();
    expect(sealed.length).toBe(UNMIXED);
    const file = readFileSync(liveAfterMix.db);
    expect(sealed.filter((value) => file.includes(value.slice(-40)))).toEqual([]);
  });

  it("holds no commit at all once the mixer has applied the ballots and checkpointed", async () => {
    expect(existsSync(liveAfterMix.wal) ? statSync(liveAfterMix.wal).size : 0).toBe(0);
    const deltas = await replayWal(liveAfterMix.db, liveAfterMix.wal);
    expect(deltas).toEqual([]);
    expect(t.deps.mixer.stats.checkpoints).toBeGreaterThan(0);
  });
});
