/**
 * Ballot secrecy of verifiable positions against a backup copy of the database. The server is
 * the only trustee, so whoever holds the server's key can decrypt any single ballot on the
 * board: the storage must then not say which ballot is whose. A voter's participation records
 * that they voted (as for every vote), the board (`belenios_records`) holds the ballots in
 * Belenios's own public order; they are written in one commit. The attacks, on a backup copy:
 * - the participations, in the order the copy stores them or as their pages' cells were written,
 *   follow the order of the ballots on the board (a rowid table numbers rows as they come);
 * - the sessions of voters who sign in and vote at once: their order, or their times to the
 *   millisecond, follow the board's (each voter here signs in just before voting);
 * - the public credentials are stored in the order the credential authority uploaded them,
 *   which is the order of its voter list;
 * - the boards of two positions are stored interleaved as ballots came, which pairs a voter's
 *   ballot for one position with the same voter's ballot for the other;
 * - a time, a counter or a length on a voter row (the probe of votes/secrecy.test.ts), or a
 *   verifiable participation told from an ordinary one by its length.
 * On rowid tables the first three failed: every voter row lined up with its ballot; so did the
 * sessions while `sessions` was a rowid table with times to the millisecond.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createClient, type Client } from "@libsql/client";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ballotTracker, electionFingerprint, generateBallot, generateCredential, parseElection, publicCredential } from "@evoting/shared/belenios";
import { backupDatabase } from "../../scripts/backup.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { backupLeaks } from "../../test/secrecy-probe.ts";
import { cellsInWriteOrder, writeOrderAgreement } from "../../test/page-order.ts";

const HOUR = 3_600_000;
const NAMES = ["Ada", "Grace Hopper", "Bartholomew Montgomery-Featherstonehaugh III"];
const VOTERS = 30;
const DATE_OF_BIRTH = 20020515;

let t: TestApp;
let dir: string;
let backup: string;
let ordinary: { _id: string };
const positionIds: string[] = [];
/** Voter id -> matric and choice (the probe's label); voters in the order they were created. */
const voters = new Map<string, { matric: string; label: string }>();
const order: string[] = [];
/** Position -> voter id -> the tracker of that voter's ballot. */
const trackers = new Map<string, Map<string, string>>();
/** Position -> public credentials in the order the authority uploaded them (its voter list's). */
const uploaded = new Map<string, string[]>();

beforeAll(async () => {
  t = await createTestApp({ ballotBatch: 1 });
  dir = mkdtempSync(join(tmpdir(), "evoting-belenios-secrecy-"));
  const admin = await t.adminToken();
  expect((await t.request("/admin/trustees", { method: "POST", token: admin, json: { name: "Server", server: true } })).status).toBe(201);
  const list = [];
  for (let i = 0; i < VOTERS; i++) {
    const voter = await t.createVoter(admin);
    const userId = (await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [voter.matricNumber] })).rows[0].id as string;
    // Pairs of voters share a choice so both halves of the probe's split see every candidate.
    voters.set(userId, { matric: voter.matricNumber, label: NAMES[Math.floor(i / 2) % NAMES.length] });
    order.push(userId);
    list.push({ ...voter, userId });
  }
  // Two verifiable positions, unlocked until the lock below (at its start one would lock itself).
  const soon = t.clock.now() + 60_000;
  const elections = [];
  for (const title of ["President", "Treasurer"]) {
    const res = await t.request("/admin/positions", {
      method: "POST",
      token: admin,
      json: { title, verifiable: true, startTime: new Date(soon).toISOString(), endTime: new Date(soon + HOUR).toISOString() },
    });
    expect(res.status).toBe(201);
    const position = (await res.json()) as { _id: string; belenios: { uuid: string } };
    for (const name of NAMES) await t.createCandidate(admin, position._id, name);
    // The credential authority's sheet follows its voter list; it uploads the public ones in that order.
    const privates = list.map(() => generateCredential());
    const publics = privates.map((c) => publicCredential(c, position.belenios.uuid));
    const put = await t.request(`/admin/positions/${position._id}/credentials`, { method: "PUT", token: admin, json: { publicCredentials: publics } });
    expect(put.status).toBe(200);
    expect((await t.request(`/admin/positions/${position._id}/lock`, { method: "POST", token: admin })).status).toBe(200);
    const electionJson = String((await t.database.client.execute({ sql: "SELECT election_json FROM belenios_positions WHERE position_id = ?", args: [position._id] })).rows[0].election_json);
    elections.push({ id: position._id, electionJson, election: parseElection(electionJson), fingerprint: electionFingerprint(electionJson), privates });
    positionIds.push(position._id);
    uploaded.set(position._id, publics);
    trackers.set(position._id, new Map());
  }
  t.clock.advance(120_000);
  // Voters come in an order of their own (not the roll's), each voting for both positions.
  const arrival = list.map((v, i) => ({ v, i })).sort((a, b) => ((a.i * 7) % VOTERS) - ((b.i * 7) % VOTERS));
  for (const { v, i } of arrival) {
    // Each voter signs in just before voting, a few seconds after the one before.
    t.clock.advance(7_000);
    const { token } = await t.login(v.matricNumber, { dateOfBirth: DATE_OF_BIRTH });
    v.token = token;
    for (const e of elections) {
      const choice = NAMES.indexOf(voters.get(v.userId)!.label);
      const ballot = generateBallot(e.electionJson, e.election, e.fingerprint, e.privates[i], { selected: [choice] });
      const res = await t.request("/vote", { method: "POST", token: v.token, json: { positionId: e.id, ballot } });
      expect(res.status).toBe(201);
      const { tracker } = (await res.json()) as { tracker: string };
      trackers.get(e.id)!.set(v.userId, tracker);
    }
  }
  // One ordinary position beside them, so that the probe sees ordinary and verifiable
  // participations side by side.
  ordinary = await t.createPosition(admin, "Secretary", new Date(t.clock.now() - 60_000).toISOString(), new Date(t.clock.now() + HOUR).toISOString());
  const candidates = [];
  for (const name of NAMES) candidates.push(await t.createCandidate(admin, ordinary._id, name));
  for (const v of list.slice(0, 10)) {
    const choice = NAMES.indexOf(voters.get(v.userId)!.label);
    const res = await t.request("/vote", { method: "POST", token: v.token, json: { positionId: ordinary._id, candidateId: candidates[choice]._id } });
    expect(res.status).toBe(201);
  }
  backup = join(dir, "backup.db");
  await backupDatabase(t.database.url, backup);
}, 300_000);

afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each voter's place in the board's order of a position, from the backup's own records. */
async function boardRanks(positionId: string): Promise<Map<string, number>> {
  const client = createClient({ url: `file:${backup}` });
  try {
    const rs = await client.execute({ sql: `SELECT content FROM belenios_records WHERE position_id = ? AND kind = 'data' AND content LIKE '{"election_uuid"%' ORDER BY seq`, args: [positionId] });
    const rankOfTracker = new Map(rs.rows.map((r, i) => [ballotTracker(String(r.content)), i]));
    const out = new Map<string, number>();
    for (const [voter, tracker] of trackers.get(positionId)!) out.set(voter, rankOfTracker.get(tracker)!);
    expect(out.size).toBe(VOTERS);
    return out;
  } finally {
    client.close();
  }
}

/**
 * A column of a position's rows in the order the table itself holds them: rowid order on a rowid
 * table, key order WITHOUT ROWID (NOT INDEXED: a covering index would answer in its own order).
 */
async function tableOrder(client: Client, table: string, column: string, positionId: string): Promise<string[]> {
  const rs = await client.execute({ sql: `SELECT ${column} AS v FROM ${table} NOT INDEXED WHERE position_id = ?`, args: [positionId] });
  return rs.rows.map((r) => String(r.v));
}

/** Chance is 0.5 (sd about 0.07 for 30 rows); the board's order is 1. */
function expectChance({ pairs, agreement }: { pairs: number; agreement: number }, what: string) {
  expect(pairs, what).toBeGreaterThanOrEqual((VOTERS * (VOTERS - 1)) / 2);
  expect(agreement, what).toBeLessThan(0.8);
  expect(agreement, what).toBeGreaterThan(0.2);
}

describe("a backup copy of verifiable positions", () => {
  it("keeps the voter, ballot, credential and board tables WITHOUT ROWID (and classifies every belenios table)", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      const kinds = await client.execute("PRAGMA table_list");
      const tables = Object.fromEntries(
        kinds.rows.filter((r) => r.schema === "main" && String(r.name).startsWith("belenios_")).map((r) => [String(r.name), Number(r.wr) === 1 ? "WITHOUT ROWID" : "rowid"]),
      );
      expect(tables).toEqual({
        belenios_ballots: "WITHOUT ROWID",
        belenios_credentials: "WITHOUT ROWID",
        belenios_records: "WITHOUT ROWID",
        // One row per position, and the trustees in the public order of their ids: written
        // before any ballot, they hold nothing of a voter.
        belenios_positions: "rowid",
        belenios_trustees: "rowid",
      });
      const kind = (name: string) => kinds.rows.find((r) => r.schema === "main" && r.name === name);
      expect(Number(kind("participations")?.wr)).toBe(1);
      expect(Number(kind("sessions")?.wr)).toBe(1);
    } finally {
      client.close();
    }
  });

  it("stores the participations and the voters' sessions in an order that does not follow the board's", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      for (const positionId of positionIds) {
        const ranks = await boardRanks(positionId);
        expectChance(writeOrderAgreement([await tableOrder(client, "participations", "voter_id", positionId)], ranks), "the participations' order");
        const sessions = (await client.execute("SELECT user_id FROM sessions NOT INDEXED")).rows.map((r) => String(r.user_id)).filter((id) => ranks.has(id));
        expect(sessions.length).toBeGreaterThanOrEqual(VOTERS);
        expectChance(writeOrderAgreement([sessions], ranks), "the sessions' order");
        // The order the copy's pages were written in, each b-tree of each table on its own.
        for (const table of ["participations", "sessions"]) {
          const pages = cellsInWriteOrder(backup, table);
          for (const tree of new Set(pages.map((p) => p.tree))) {
            const ids = pages.filter((p) => p.tree === tree).map((p) => p.cells.map((values) => values.find((v): v is string => typeof v === "string" && ranks.has(v)) ?? null));
            if (ids.flat().filter((v) => v !== null).length < VOTERS) continue; // a tree of no voter's rows
            // Spread over several pages, a table's rows make fewer pairs than one list of 30.
            const { pairs, agreement } = writeOrderAgreement(ids, ranks);
            expect(pairs, `${table} ${tree}'s page order`).toBeGreaterThanOrEqual(100);
            expect(agreement, `${table} ${tree}'s page order`).toBeLessThan(0.8);
            expect(agreement, `${table} ${tree}'s page order`).toBeGreaterThan(0.2);
          }
        }
      }
    } finally {
      client.close();
    }
  });

  it("keeps the voters' sign-in times to the hour: every voter signed in within the same hour looks alike", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      const rs = await client.execute({
        sql: "SELECT created_at, expires_at, revoked_at FROM sessions WHERE user_id IN (SELECT value FROM json_each(?))",
        args: [JSON.stringify(order)],
      });
      expect(rs.rows.length).toBeGreaterThanOrEqual(VOTERS);
      const times = rs.rows.flatMap((r) => [r.created_at, r.expires_at, r.revoked_at]).filter((v) => v !== null).map(Number);
      expect(times.filter((ms) => ms % HOUR !== 0)).toEqual([]);
      // 30 sign-ins 7 s apart fall in at most two hours: two values, not 30.
      expect(new Set(rs.rows.map((r) => Number(r.created_at))).size).toBeLessThanOrEqual(2);
    } finally {
      client.close();
    }
  });

  it("counts a verifiable vote in turnout and the voter's status, sealed like any participation", async () => {
    const admin = await t.adminToken();
    const results = (await (await t.request("/vote/results", { token: admin })).json()) as { totalVotesCast: number };
    expect(results.totalVotesCast).toBe(VOTERS);
    const { token } = await t.login(voters.get(order[0])!.matric, { dateOfBirth: DATE_OF_BIRTH });
    const mine = (await (await t.request("/vote/my-votes", { token })).json()) as { positionId: string; verifiable?: boolean }[];
    expect(mine.filter((m) => m.verifiable).map((m) => m.positionId).sort()).toEqual([...positionIds].sort());
    const client = createClient({ url: `file:${backup}` });
    try {
      const lengths = await client.execute("SELECT DISTINCT length(sealed_choice) AS n FROM participations");
      expect(lengths.rows.length).toBe(1);
      const counted = await client.execute("SELECT position_id, count(*) AS n FROM participations GROUP BY position_id");
      expect(Object.fromEntries(counted.rows.map((r) => [String(r.position_id), Number(r.n)]))).toEqual({ [positionIds[0]]: VOTERS, [positionIds[1]]: VOTERS, [ordinary._id]: 10 });
    } finally {
      client.close();
    }
    // The integrity check counts the boards' ballots against these participations.
    const check = await t.request("/admin/integrity/check", { method: "POST", token: admin });
    expect(check.status).toBe(200);
    expect((await check.json()) as { ok: boolean; problems: string[] }).toMatchObject({ ok: true, problems: [] });
    // After the close, who voted (never how), against the ballots on the board.
    t.clock.advance(2 * HOUR);
    for (const positionId of positionIds) {
      const res = await t.request(`/admin/positions/${positionId}/who-voted`, { token: admin });
      expect(res.status).toBe(200);
      const list = (await res.json()) as { voters: { matricNumber: string }[]; ballotsOnBoard: number };
      expect(list.voters.map((v) => v.matricNumber)).toEqual([...voters.values()].map((v) => v.matric).sort());
      expect(list.ballotsOnBoard).toBe(VOTERS);
    }
  });

  it("stores the public credentials in an order that does not follow the authority's voter list", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      for (const positionId of positionIds) {
        const listRank = new Map(uploaded.get(positionId)!.map((c, i) => [c, i]));
        expectChance(writeOrderAgreement([await tableOrder(client, "belenios_credentials", "credential", positionId)], listRank), "the credentials' order");
      }
    } finally {
      client.close();
    }
  });

  it("stores each position's board apart: no interleaving pairs one voter's ballots across positions", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      const scanned = (await client.execute("SELECT position_id FROM belenios_records NOT INDEXED")).rows.map((r) => String(r.position_id));
      const runs = scanned.filter((p, i) => i === 0 || scanned[i - 1] !== p).length;
      expect(runs).toBe(positionIds.length);
    } finally {
      client.close();
    }
  });

  it("keeps no time or counter on a voter, ballot or credential row, and no column or length that predicts the choice", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      for (const table of ["belenios_ballots", "belenios_credentials"]) {
        const rs = await client.execute(`SELECT * FROM "${table}"`);
        expect(rs.rows.length, table).toBeGreaterThanOrEqual(VOTERS * positionIds.length);
        const numbers = rs.rows.flatMap((row) => rs.columns.filter((_, i) => typeof row[i] !== "string").map((col) => `${table}.${col}`));
        expect(numbers).toEqual([]);
      }
    } finally {
      client.close();
    }
    const probe = await backupLeaks(backup, voters, order);
    expect(probe.tables.has("participations")).toBe(true);
    expect(probe.tables.has("sessions")).toBe(true);
    expect(probe.leaks).toEqual([]);
  });
});
