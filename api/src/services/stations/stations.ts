/**
 * Polling stations: stations, their officers, and an officer's sign-in to a
 * station on a device (a station session). The ballots a station takes are in
 * station-ballots.ts; why the device holds what it holds: docs/decisions/0009.
 */
import { hkdfSync, randomBytes, randomUUID } from "node:crypto";
import { isStaff, matricSearchKey, toRole, type RollEntry, type StationDevice, type StationInfo, type StationOfficer, type StationTally } from "@evoting/shared";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { disputedBallots, sessions, stationOfficers, stationSessions, stations, users } from "../../db/schema.ts";
import { isVoterSql } from "../../db/voters.ts";
import type { Keys } from "../../security/keys.ts";
import { CURRENT_POSITIONS_SQL } from "../../db/elections.ts";
import { hashToken, revokeStatement } from "../auth/sessions.ts";

/**
 * A station session's AES-256-GCM key, derived from the server secret and the session id:
 * never stored, so a database copy cannot forge or read station ballots.
 */
export const stationSessionKey = (keys: Keys, sessionId: string): Buffer =>
  Buffer.from(hkdfSync("sha256", keys.sign, sessionId, "csc-evoting station session", 32));

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export interface StationRow {
  id: string;
  name: string;
  revokedAt: number | null;
}

export async function findStation(database: Database, id: string): Promise<StationRow | null> {
  const [row] = await database.db.select({ id: stations.id, name: stations.name, revokedAt: stations.revokedAt }).from(stations).where(eq(stations.id, id));
  return row ?? null;
}

export async function listStations(database: Database): Promise<StationInfo[]> {
  const { db } = database;
  const [stationRows, officerRows] = await db.batch([
    db.select().from(stations).orderBy(stations.createdAt, stations.name),
    db
      .select({ stationId: stationOfficers.stationId, id: users.id, name: users.name, matricNumber: users.matricNumber, role: users.role })
      .from(stationOfficers)
      .innerJoin(users, eq(users.id, stationOfficers.userId))
      .orderBy(users.name),
  ]);
  const officers = new Map<string, StationOfficer[]>();
  for (const r of officerRows) {
    const list = officers.get(r.stationId) ?? [];
    list.push({ _id: r.id, name: r.name, matricNumber: r.matricNumber, role: toRole(r.role) });
    officers.set(r.stationId, list);
  }
  return stationRows.map((r) => ({
    _id: r.id,
    name: r.name,
    createdAt: new Date(r.createdAt).toISOString(),
    revokedAt: iso(r.revokedAt),
    ballotsTaken: r.ballotsTaken,
    officers: officers.get(r.id) ?? [],
  }));
}

export async function stationTally(database: Database): Promise<StationTally> {
  const rows = await database.db.select().from(stations).orderBy(stations.createdAt, stations.name);
  const list = rows.map((r) => ({ _id: r.id, name: r.name, revoked: r.revokedAt !== null, ballotsTaken: r.ballotsTaken }));
  return { stations: list, total: list.reduce((sum, s) => sum + s.ballotsTaken, 0) };
}

export async function createStation(database: Database, name: string, now: number) {
  const id = randomUUID();
  await database.writer.submit([{ sql: "INSERT INTO stations (id, name, created_at) VALUES (?, ?, ?)", args: [id, name, now] }]);
  return id;
}

/** Revoking is final: every session of the station ends and its ballots are refused from now on. */
export async function revokeStation(database: Database, id: string, now: number): Promise<boolean> {
  const [revoked] = await database.writer.submit([
    { sql: "UPDATE stations SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", args: [now, id] },
    { sql: "UPDATE station_sessions SET closed_at = ? WHERE station_id = ? AND closed_at IS NULL", args: [now, id] },
  ]);
  return revoked.rowsAffected === 1;
}

export type AssignResult = { officer: StationOfficer } | "no-user" | "not-staff";

export async function assignOfficer(database: Database, stationId: string, matricNumber: string, now: number): Promise<AssignResult> {
  const [row] = await database.db.select({ id: users.id, name: users.name, matricNumber: users.matricNumber, role: users.role }).from(users).where(eq(users.matricNumber, matricNumber));
  if (!row) return "no-user";
  const role = toRole(row.role);
  if (!isStaff(role)) return "not-staff";
  await database.writer.submit([
    { sql: "INSERT OR IGNORE INTO station_officers (station_id, user_id, assigned_at) VALUES (?, ?, ?)", args: [stationId, row.id, now] },
  ]);
  return { officer: { _id: row.id, name: row.name, matricNumber: row.matricNumber, role } };
}

/** Unassigning also ends the officer's open sessions at this station: their device stops taking ballots. */
export async function removeOfficer(database: Database, stationId: string, userId: string, now: number): Promise<boolean> {
  const [removed] = await database.writer.submit([
    { sql: "DELETE FROM station_officers WHERE station_id = ? AND user_id = ?", args: [stationId, userId] },
    {
      sql: "UPDATE station_sessions SET closed_at = ? WHERE station_id = ? AND officer_id = ? AND closed_at IS NULL",
      args: [now, stationId, userId],
    },
  ]);
  return removed.rowsAffected === 1;
}

export async function isAssigned(database: Database, stationId: string, userId: string): Promise<boolean> {
  const held = await database.db
    .select({ userId: stationOfficers.userId })
    .from(stationOfficers)
    .where(and(eq(stationOfficers.stationId, stationId), eq(stationOfficers.userId, userId)));
  return held.length > 0;
}

/** Live stations this user may staff. */
export async function stationsOf(database: Database, userId: string) {
  return database.db
    .select({ _id: stations.id, name: stations.name })
    .from(stations)
    .innerJoin(stationOfficers, eq(stationOfficers.stationId, stations.id))
    .where(and(eq(stationOfficers.userId, userId), isNull(stations.revokedAt)))
    .orderBy(stations.name);
}

export interface StationSessionRow {
  id: string;
  stationId: string;
  officerId: string;
  loginTokenHash: string;
  loginExpiresAt: number;
  openedAt: number;
  closedAt: number | null;
  lostAt: number | null;
  /** Ballot ids still on the device when it closed this session itself; null when it ended otherwise. */
  closedPending: string[] | null;
}

/**
 * Opens a station session on a device and gives the device a token of its own for it. The
 * token reaches only the station routes (http/auth.ts), its own station session only, and lives
 * no longer than the sign-in that opened the station; the sign-in token is revoked in the same
 * write, so the device keeps no token that can do anything else. Once the station session has
 * ended (closed, lost, station revoked, officer unassigned) every station route refuses it but
 * the delivery of ballots the device already holds, which the ballot rules then count, refuse
 * or hold for the committee (station-ballots.ts).
 */
export async function openStationSession(
  database: Database,
  input: { stationId: string; officerId: string; openerTokenHash: string; now: number },
): Promise<{ row: StationSessionRow; token: string }> {
  const [opener] = await database.db.select({ expiresAt: sessions.expiresAt }).from(sessions).where(eq(sessions.tokenHash, input.openerTokenHash));
  const token = randomBytes(32).toString("base64url");
  const row: StationSessionRow = {
    id: randomUUID(),
    stationId: input.stationId,
    officerId: input.officerId,
    loginTokenHash: hashToken(token),
    loginExpiresAt: opener ? opener.expiresAt : input.now,
    openedAt: input.now,
    closedAt: null,
    lostAt: null,
    closedPending: null,
  };
  await database.writer.submit([
    {
      sql: "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
      args: [row.loginTokenHash, row.officerId, row.openedAt, row.loginExpiresAt],
    },
    {
      sql: `INSERT INTO station_sessions (id, station_id, officer_id, login_token_hash, login_expires_at, opened_at)
            VALUES (?, ?, ?, ?, ?, ?)`,
      args: [row.id, row.stationId, row.officerId, row.loginTokenHash, row.loginExpiresAt, row.openedAt],
    },
    revokeStatement({ tokenHash: input.openerTokenHash }, input.now),
  ]);
  return { row, token };
}

export async function findStationSession(database: Database, id: string): Promise<StationSessionRow | null> {
  const [r] = await database.db.select().from(stationSessions).where(eq(stationSessions.id, id));
  if (!r) return null;
  return { ...r, closedPending: r.closedPending === null ? null : (JSON.parse(r.closedPending) as string[]) };
}

/** The device closes its own session, naming the ballots it still holds: after this, only those can count. */
export async function closeStationSession(database: Database, id: string, now: number, pending: readonly string[]) {
  await database.writer.submit([
    { sql: "UPDATE station_sessions SET closed_at = ?, closed_pending = ? WHERE id = ? AND closed_at IS NULL", args: [now, JSON.stringify(pending), id] },
  ]);
}

/**
 * When the officer's sign-in behind a station session stopped counting: the earliest of the
 * station session's close, the login session's expiry and its revocation (sign-out). A
 * ballot cast at or after this instant was not cast with an officer signed in.
 */
export async function sessionEnd(database: Database, session: StationSessionRow): Promise<number> {
  const [login] = await database.db
    .select({ expiresAt: sessions.expiresAt, revokedAt: sessions.revokedAt })
    .from(sessions)
    .where(eq(sessions.tokenHash, session.loginTokenHash));
  // The live row when it is still there (its expiry may have been extended); the copy taken
  // at opening once clean-up has removed it.
  const ends = [login ? login.expiresAt : session.loginExpiresAt];
  if (session.closedAt !== null) ends.push(session.closedAt);
  if (login && login.revokedAt !== null) ends.push(login.revokedAt);
  return Math.min(...ends);
}

const parseGroups = (value: unknown): string[] => {
  try {
    const parsed: unknown = JSON.parse(String(value ?? "[]"));
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
};

// SQL: a correlated group_concat over the current election's positions, shared by both roll reads.
const ROLL_COLUMNS = `u.id, u.matric_number, u.name, u.groups, u.role,
  (SELECT group_concat(p.position_id) FROM participations p WHERE p.voter_id = u.id AND p.position_id IN ${CURRENT_POSITIONS_SQL}) AS voted`;

/** The roll a station needs to work alone: no date of birth, no hash of one, no password. */
export async function stationRoll(database: Database): Promise<RollEntry[]> {
  // A voter taken off the roll (disabled) is no voter at a station either.
  return toRoll((await database.client.execute(`SELECT ${ROLL_COLUMNS} FROM users u WHERE ${isVoterSql("u")} ORDER BY u.matric_number`)).rows);
}

/**
 * Voters whose matriculation number contains the query's letters and digits (separators
 * ignored), or whose name contains it (case-insensitive), at most `limit`.
 */
export async function searchRoll(database: Database, query: string, limit: number): Promise<RollEntry[]> {
  const escape = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  const like = `%${escape(query.toLowerCase())}%`;
  const key = matricSearchKey(query);
  const rs = await database.client.execute({
    sql: `SELECT ${ROLL_COLUMNS} FROM users u
           WHERE ((? <> '' AND replace(lower(u.matric_number), '/', '') LIKE ? ESCAPE '\\') OR lower(u.name) LIKE ? ESCAPE '\\')
             AND ${isVoterSql("u")}
           ORDER BY u.matric_number LIMIT ?`,
    args: [key, `%${escape(key)}%`, like, limit],
  });
  return toRoll(rs.rows);
}

function toRoll(rows: Record<string, unknown>[]): RollEntry[] {
  return rows
    .filter((r) => !isStaff(toRole(r.role)))
    .map((r) => ({
      _id: String(r.id),
      matricNumber: String(r.matric_number),
      name: String(r.name),
      groups: parseGroups(r.groups),
      voted: r.voted ? String(r.voted).split(",") : [],
    }));
}

export async function findRollEntry(database: Database, voterId: string): Promise<(RollEntry & { role: string }) | null> {
  const [r] = await database.db
    .select({ id: users.id, matricNumber: users.matricNumber, name: users.name, groups: users.groups, role: users.role, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, voterId));
  // Off the roll (disabled): not on the roll a station may take a ballot for.
  if (!r || r.disabledAt !== null) return null;
  return { _id: r.id, matricNumber: r.matricNumber, name: r.name, groups: parseGroups(r.groups), voted: [], role: toRole(r.role) };
}

/**
 * A station device reported lost: its session closes (the device takes no more ballots that
 * count) and every ballot of it that reaches the server from now on is held for the
 * committee. False when it was reported already.
 */
export async function markSessionLost(database: Database, sessionId: string, now: number): Promise<boolean> {
  const [marked] = await database.writer.submit([
    { sql: "UPDATE station_sessions SET lost_at = ?, closed_at = coalesce(closed_at, ?) WHERE id = ? AND lost_at IS NULL", args: [now, now, sessionId] },
  ]);
  return marked.rowsAffected === 1;
}

/** Every device a station was opened on (its station sessions), with the ballots held from lost ones, per position. */
export async function listStationDevices(database: Database, titles: ReadonlyMap<string, string>): Promise<StationDevice[]> {
  const { db } = database;
  const [opened, held] = await db.batch([
    db
      .select({
        id: stationSessions.id,
        stationId: stationSessions.stationId,
        stationName: stations.name,
        officerName: users.name,
        matricNumber: users.matricNumber,
        openedAt: stationSessions.openedAt,
        closedAt: stationSessions.closedAt,
        lostAt: stationSessions.lostAt,
      })
      .from(stationSessions)
      .innerJoin(stations, eq(stations.id, stationSessions.stationId))
      .innerJoin(users, eq(users.id, stationSessions.officerId))
      .orderBy(stations.name, stationSessions.openedAt),
    db.select({ sessionId: disputedBallots.sessionId, positions: disputedBallots.positions }).from(disputedBallots),
  ]);
  const counts = new Map<string, { total: number; byPosition: Map<string, number> }>();
  for (const r of held) {
    const entry = counts.get(r.sessionId) ?? { total: 0, byPosition: new Map<string, number>() };
    entry.total++;
    for (const id of JSON.parse(r.positions) as string[]) entry.byPosition.set(id, (entry.byPosition.get(id) ?? 0) + 1);
    counts.set(r.sessionId, entry);
  }
  return opened.map((r) => {
    const c = counts.get(r.id);
    return {
      _id: r.id,
      station: { _id: r.stationId, name: r.stationName },
      officer: { name: r.officerName, matricNumber: r.matricNumber },
      openedAt: new Date(r.openedAt).toISOString(),
      closedAt: iso(r.closedAt),
      lostAt: iso(r.lostAt),
      held: {
        total: c?.total ?? 0,
        positions: [...(c?.byPosition ?? new Map<string, number>())].map(([positionId, ballots]) => ({ positionId, positionTitle: titles.get(positionId) ?? "", ballots })),
      },
    };
  });
}
