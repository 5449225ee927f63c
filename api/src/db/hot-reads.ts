/**
 * The reads that stay raw SQL, each on a path measured hot: they run as prepared statements on
 * the direct connection of a database file (db/direct.ts, `database.get`), where building the
 * query with drizzle and preparing it again on the client costs more than the read itself
 * (decision 0016). One named, typed function per query, and `database.get` is called nowhere else;
 * every other read is a drizzle query on `database.db` (or, where drizzle cannot express it,
 * SQL with a one-line why beside it).
 */
import type { Database } from "./client.ts";

/** A live session's user, by its token's hash. */
export interface SessionRow {
  id: string;
  name: string;
  role: string;
  matricNumber: string;
  email: string | null;
  hasPassword: boolean;
  expiresAt: number;
  /** Set when the token is a polling-station device's: the station session it serves. */
  stationSessionId: string | null;
}

/**
 * Every authenticated request whose session is not in memory (services/auth/sessions.ts).
 * A station device's token is made with its station session, in the same instant
 * (openStationSession); a sign-in that opened a station before there were such tokens stays
 * an ordinary one.
 */
export async function sessionByTokenHash(database: Database, tokenHash: string, now: number): Promise<SessionRow | undefined> {
  const row = await database.get(
    `SELECT u.id, u.name, u.role, u.matric_number, u.email, u.password_hash IS NOT NULL AS has_password, s.expires_at,
            (SELECT st.id FROM station_sessions st WHERE st.login_token_hash = s.token_hash AND st.opened_at = s.created_at) AS station_session_id
            FROM sessions s JOIN users u ON u.id = s.user_id
           WHERE s.token_hash = ? AND s.expires_at > ? AND s.revoked_at IS NULL AND u.disabled_at IS NULL
           LIMIT 1`,
    [tokenHash, now],
  );
  if (!row) return undefined;
  return {
    id: String(row.id),
    name: String(row.name),
    role: String(row.role),
    matricNumber: String(row.matric_number),
    email: row.email === null ? null : String(row.email),
    hasPassword: Number(row.has_password) === 1,
    expiresAt: Number(row.expires_at),
    stationSessionId: row.station_session_id === null ? null : String(row.station_session_id),
  };
}

/**
 * A counter in `meta` (0 when absent): the results version, read by results requests and the
 * live stream after every vote batch, and the cache versions (db/cache-versions.ts).
 */
export async function metaCounter(database: Database, key: string): Promise<number> {
  const row = await database.get("SELECT value FROM meta WHERE key = ?", [key]);
  return Number(row?.value ?? 0);
}

/** A user's roll groups as stored (JSON text): read with every vote for a position limited to groups. */
export async function userGroups(database: Database, userId: string): Promise<string | undefined> {
  const row = await database.get("SELECT groups FROM users WHERE id = ?", [userId]);
  return row ? String(row.groups) : undefined;
}

/** What a refused sign-in waits for (security/throttle.ts): read on every refusal, the common case in a flood. */
export interface SigninWaitRow {
  /** When the account's lock ends (0 or absent: not locked). */
  lockedUntil: number;
  /** Other accounts failing from this address inside the window. */
  failingAccounts: number;
  /** The oldest failure from this address inside the window, or null. */
  oldestFailure: number | null;
}

export async function signinWait(database: Database, account: string, address: string, windowStart: number): Promise<SigninWaitRow> {
  const row = await database.get(
    `SELECT (SELECT locked_until FROM signin_tries WHERE account = ?1) AS locked,
            (SELECT count(*) FROM signin_tries WHERE address = ?2 AND failed_at > ?3 AND account <> ?1) AS failing,
            (SELECT min(failed_at) FROM signin_tries WHERE address = ?2 AND failed_at > ?3) AS oldest`,
    [account, address, windowStart],
  );
  return {
    lockedUntil: Number(row?.locked ?? 0),
    failingAccounts: Number(row?.failing ?? 0),
    oldestFailure: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
  };
}
