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
 * - a raw copy of the database file (and a backup copy), its ballot pages read byte by byte:
 *   the order a page's cells were written in (their offsets) does not follow the order the
 *   ballots were cast in, within a group of the election's batch.
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
import { messages, type StationBallotAnswer, type StationSessionInfo } from "@evoting/shared";
import { featureScores, replayWal, voterTiedRows, type LabelledRow } from "../../test/secrecy-probe.ts";
import { sealStationBallot } from "../../test/station-device.ts";
import { cellsInWriteOrder, writeOrderAgreement } from "../../test/page-order.ts";
import { unsealChoice } from "./cast.ts";

const HOUR = 3_600_000;
const NAMES = ["Al", "Grace Hopper", "Margaret Heafield Hamilton", "Bartholomew Montgomery-Featherstonehaugh III"];
const VOTERS = 96;
/** The mixer runs by hand here, every MIX_EVERY votes, as its timer would under load. */
const MIX_EVERY = 16;
/** The last votes stay pending when the first live copy is taken. */
const UNMIXED = 32;
/** Ballots a station device reported lost delivers afterwards: held for the committee. */
const HELD = 48;

let t: TestApp;
let dir: string;
const voters = new Map<string, { matric: string; label: string }>();
const order: string[] = [];
/** Held ballot id -> its voter and choice; and the held voters in order. */
const held = new Map<string, { voter: string; label: string }>();
const heldOrder: string[] = [];
const candidateIds: string[] = [];
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
  candidateIds.push(...candidates.map((c) => c._id));

  // A polling-station device reported lost: what it delivers afterwards is held, sealed, in
  // disputed_ballots until the committee decides. First, so that the passes below checkpoint
  // its writes and the live copies hold only the votes' commits.
  const officerMatric = "2019/5570990";
  const staff = { name: "Station Officer", matricNumber: officerMatric, role: "officer", password: "officer-secret" };
  expect((await t.request("/admin/users", { method: "POST", token: admin, json: staff })).status).toBe(201);
  const officer = await t.login(officerMatric, { password: "officer-secret" });
  const station = (await (await t.request("/admin/stations", { method: "POST", token: admin, json: { name: "Library Hall 1" } })).json()) as { _id: string };
  expect((await t.request(`/admin/stations/${station._id}/officers`, { method: "POST", token: admin, json: { matricNumber: officerMatric } })).status).toBe(201);
  const opened = await t.request("/station/sessions", { method: "POST", token: officer.token, json: { stationId: station._id, password: "officer-secret" } });
  expect(opened.status).toBe(201);
  const session = (await opened.json()) as StationSessionInfo;
  expect((await t.request(`/admin/stations/devices/${session.sessionId}/lost`, { method: "POST", token: admin })).status).toBe(200);
  for (let i = 0; i < HELD; i++) {
    const voter = await t.createVoter(admin);
    const userId = (await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [voter.matricNumber] })).rows[0].id as string;
    const choice = Math.floor(i / 2) % NAMES.length;
    const ballot = sealStationBallot(session, userId, [{ positionId: position._id, kind: "candidate", candidateId: candidates[choice]._id }], t.clock.now());
    held.set(ballot.ballotId, { voter: userId, label: NAMES[choice] });
    heldOrder.push(userId);
    // The device delivers with its station token (the officer's sign-in was revoked at opening).
    const res = await t.request("/station/ballots", { method: "POST", token: session.token, json: ballot.sealed, headers: { "idempotency-key": ballot.ballotId } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as StationBallotAnswer).outcomes[0]).toMatchObject({ counted: false, message: messages.stationBallotHeld });
  }
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
      for (const table of ["participations", "idempotency_keys", "pending_ballots", "ballots", "disputed_ballots"]) {
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
});

describe("a backup copy's held ballots (a station device reported lost)", () => {
  it("name no voter or candidate in the clear, and no column or length predicts the choice better than chance", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      const rs = await client.execute("SELECT * FROM disputed_ballots");
      expect(rs.rows).toHaveLength(HELD);
      const text = JSON.stringify(rs.rows);
      for (const { voter } of held.values()) expect(text).not.toContain(voter);
      for (const id of candidateIds) expect(text).not.toContain(id);
      // Labelled with what the test knows (each held ballot's voter and choice), as an attacker
      // who guessed the voters would try.
      const rows: LabelledRow[] = rs.rows.map((row) => {
        const known = held.get(String(row.id));
        if (!known) throw new Error(`held ballot ${String(row.id)} was never delivered`);
        return { table: "disputed_ballots", voter: known.voter, label: known.label, values: Object.fromEntries(rs.columns.map((col, i) => [col, row[i]])) };
      });
      const scores = featureScores(rows, heldOrder);
      expect(scores.length).toBeGreaterThan(3);
      const leaks = scores.filter((s) => s.accuracy > s.bound).map((s) => `${s.feature}: ${(s.accuracy * 100).toFixed(0)}% > ${(s.bound * 100).toFixed(0)}% (n=${s.n})`);
      expect(leaks).toEqual([]);
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

/**
 * The page-order attack: a page's cell offsets keep the order its rows were written in, and a
 * group's ballots all go into the empty ballots table, one page, in one commit. Had they gone
 * in in the order they were cast, the offsets read beside the sessions' sign-in times would
 * name each ballot's voter (12 of 12 first ballots were linked so). The mixer inserts a group
 * in a shuffled order: the offsets then agree with the casting order only as often as chance.
 */
describe("a raw copy's ballot pages", () => {
  const GROUP = 20;
  let app: TestApp;
  let work: string;
  const castRank = new Map<string, number>();
  let raw: string;
  let schemaSql: string;

  beforeAll(async () => {
    // The installation's default batch (10); passes where the test says.
    app = await createTestApp({ config: { mixer: { immediate: false, intervalMs: 3_600_000 } } });
    work = mkdtempSync(join(tmpdir(), "evoting-pages-"));
    const admin = await app.adminToken();
    const { position, candidates } = await app.openElection(admin, NAMES);
    for (let i = 0; i < GROUP; i++) {
      const voter = await app.createVoter(admin);
      expect((await app.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[i % NAMES.length]._id } })).status).toBe(201);
      const row = (await app.database.client.execute({
        sql: "SELECT p.voter_id, p.sealed_choice FROM participations p JOIN users u ON u.id = p.voter_id WHERE u.matric_number = ?",
        args: [voter.matricNumber],
      })).rows[0];
      castRank.set(unsealChoice(app.deps.keys, String(row.voter_id), position._id, String(row.sealed_choice)).ballotId as string, i);
    }
    expect(await app.deps.mixer.mix()).toBe(GROUP);
    // Everything in the database file itself: what copying evoting.db takes.
    let checkpointed = false;
    for (let i = 0; i < 50 && !checkpointed; i++) checkpointed = await app.deps.mixer.checkpoint();
    expect(checkpointed).toBe(true);
    raw = join(work, "raw.db");
    copyFileSync(app.database.filePath!, raw);
    schemaSql = String((await app.database.client.execute("SELECT sql FROM sqlite_schema WHERE name = 'ballots'")).rows[0].sql);
  }, 120_000);

  afterAll(async () => {
    await app.close();
    rmSync(work, { recursive: true, force: true });
  });

  const ballotPages = (file: string) => cellsInWriteOrder(file, "ballots").filter((p) => p.tree === "ballots").map((p) => p.cells.map((values) => (typeof values[0] === "string" ? values[0] : null)));

  it("finds every ballot of the group on the copy's pages", () => {
    const found = ballotPages(raw).flat().filter((id) => id !== null && castRank.has(id));
    expect(found).toHaveLength(GROUP);
  });

  it("write them in an order that does not follow the casting order", () => {
    const { pairs, agreement } = writeOrderAgreement(ballotPages(raw), castRank);
    expect(pairs).toBeGreaterThanOrEqual(GROUP * 2);
    // Chance is 0.5 (sd about 0.05 for 190 pairs); casting order is 1.
    expect(agreement).toBeLessThan(0.75);
    expect(agreement).toBeGreaterThan(0.25);
  });

  it("would give the casting order away had the group gone in as cast (the probe sees it)", async () => {
    const control = join(work, "control.db");
    const client = createClient({ url: `file:${control}` });
    try {
      const rows = (await app.database.client.execute("SELECT * FROM ballots")).rows;
      const cols = Object.keys(rows[0]);
      // The same table, alone: its foreign keys name tables this file does not have.
      await client.execute("PRAGMA foreign_keys = OFF");
      await client.execute(schemaSql);
      const inCastOrder = [...rows].sort((a, b) => (castRank.get(String(a.id)) as number) - (castRank.get(String(b.id)) as number));
      await client.batch(
        inCastOrder.map((r) => ({ sql: `INSERT INTO ballots (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`, args: cols.map((c) => r[c] ?? null) })),
        "write",
      );
    } finally {
      client.close();
    }
    expect(writeOrderAgreement(ballotPages(control), castRank).agreement).toBeGreaterThan(0.95);
  });

  it("and a backup copy (VACUUM INTO) keeps no write order either", async () => {
    const copy = join(work, "backup.db");
    await backupDatabase(app.database.url, copy);
    const { pairs, agreement } = writeOrderAgreement(ballotPages(copy), castRank);
    expect(pairs).toBeGreaterThanOrEqual(GROUP * 2);
    expect(agreement).toBeLessThan(0.75);
    expect(agreement).toBeGreaterThan(0.25);
  });
});

describe("a backup copy after the declaration", () => {
  it("holds a declared election's archive that names no voter and lists receipts in no order but their own", async () => {
    // Last, as it changes the database: the committee rejects the held ballots, and after the
    // close and its grace the results are declared; a backup then holds the archive.
    const admin = await t.adminToken();
    const device = await t.database.get("SELECT id FROM station_sessions WHERE lost_at IS NOT NULL");
    const rejected = await t.request(`/admin/stations/devices/${String(device?.id)}/held`, { method: "POST", token: admin, json: { decision: "reject" } });
    expect(rejected.status).toBe(200);
    t.clock.advance(HOUR + t.deps.config.voteGraceMs + 1);
    expect((await t.request("/admin/election/declare", { method: "POST", token: admin })).status).toBe(200);
    const declared = join(dir, "declared.db");
    await backupDatabase(t.database.url, declared);
    const client = createClient({ url: `file:${declared}` });
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
