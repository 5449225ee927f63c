/**
 * Bearer sessions: 256 random bits handed to the client, only their SHA-256 stored. Each
 * session has an absolute lifetime (SESSION_HOURS, 12 h by default) and can be revoked
 * (logout, password change, an admin's reset, sign-in limits).
 *
 * Every authenticated request needs its session, so each process keeps the sessions it has
 * seen in memory (SessionCache, `Deps.sessions`) instead of reading the database per
 * request. What ends a session still takes effect at once:
 * - in this process, before the revoking request is answered: every write that ends a session
 *   or changes a user's cached fields calls `sessions.invalidate()` once it has committed
 *   (`revokeSessions` is the one helper for revoking; the voter roll's writes call it too);
 * - from any other process within a second: triggers move `meta.auth_version` on every such
 *   change (db/cache-versions.ts) and the cache reads it at most once a second, as the
 *   realtime hub polls its own counters.
 * A cached session also ends at its own expiry, checked against the caller's clock.
 */
import { createHash, randomBytes } from "node:crypto";
import type { InStatement } from "@libsql/client";
import { toRole } from "@evoting/shared";
import type { Clock } from "../../clock.ts";
import type { Database } from "../../db/client.ts";
import { AUTH_VERSION, VersionWatch } from "../../db/cache-versions.ts";
import { sessionByTokenHash } from "../../db/hot-reads.ts";
import type { AuthUser } from "./auth-user.ts";

/** Ends every session of the account that is still open at `now` (one statement of a larger write). */
export const endSessionsStatement = (userId: string, now: number) => ({
  sql: `UPDATE sessions SET revoked_at = ${REVOKED_AT} WHERE user_id = ? AND (revoked_at IS NULL OR revoked_at > ?)`,
  args: [now, sessionHour(now), userId, now],
});

/**
 * A session's stored times are kept to the hour: to the millisecond, when voters sign in and
 * vote at once, their sign-in times lined them up with a verifiable position's public board
 * (docs/security.md). Only a polling-station device's token (an officer's, made in
 * services/stations) keeps its exact times: its station session is matched by `created_at`, and
 * a ballot cast on the device counts only if cast before its `revoked_at` (the sign-out).
 * The expiry is rounded up to a step of a twelfth of the lifetime, at most an hour, so a
 * session lasts its lifetime and at most that step more (12 to 13 h by default), and a short
 * test lifetime stays short.
 */
const HOUR_MS = 3_600_000;
export const sessionHour = (now: number) => now - (now % HOUR_MS);
export function sessionExpiry(now: number, lifetimeMs: number): number {
  const step = Math.max(1, Math.min(HOUR_MS, Math.floor(lifetimeMs / 12)));
  return Math.ceil((now + lifetimeMs) / step) * step;
}
/** `revoked_at`'s value in an UPDATE of sessions: ?1 the instant, ?2 its hour. */
const REVOKED_AT = "CASE WHEN EXISTS (SELECT 1 FROM station_sessions st WHERE st.login_token_hash = sessions.token_hash) THEN ? ELSE ? END";

export const hashToken = (token: string): string => createHash("sha256").update(token).digest("base64url");

/** Opportunistic clean-up of a user's long-dead sessions at sign-in; ends nothing alive. */
const DELETE_EXPIRED_SQL = "DELETE FROM sessions WHERE user_id = ? AND expires_at < ?";

/**
 * Sign-ins go through the group-commit writer: in a rush, many sessions share one commit
 * (one fsync) instead of two synchronous commits each on the event loop (bench/rush.ts).
 *
 * `user` as read for this sign-in, and `mark` (sessionCacheMark) taken before it was read:
 * the new session goes into this process's cache once committed, so the voter's first calls
 * after signing in read no session from the database, unless anything that ends sessions or
 * changes users was written since the mark (then the first call reads it, as any other).
 */
export async function createSession({ database, sessions }: { database: Database; sessions: SessionCache }, user: AuthUser, now: number, lifetimeMs: number, mark: number) {
  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashToken(token);
  const expiresAt = sessionExpiry(now, lifetimeMs);
  await database.writer.submit([
    {
      sql: "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
      args: [tokenHash, user.id, sessionHour(now), expiresAt],
    },
    // Keeps the table small.
    { sql: DELETE_EXPIRED_SQL, args: [user.id, now] },
  ]);
  sessions.remember(token, { tokenHash, expiresAt, user: Object.freeze(user) }, mark);
  return { token, expiresAt };
}

export interface Session {
  user: AuthUser;
  tokenHash: string;
  expiresAt: number;
  /**
   * Set for a polling-station device's token: the station session it was issued for. Such a
   * token reaches the station routes, sign-out and the profile only (http/auth.ts).
   */
  stationSessionId?: string;
}

/** Bounds memory (~1 KB each); far more than the voters one process serves in a session's lifetime. */
const MAX_CACHED = 100_000;

export class SessionCache {
  /** By bearer token: a hit costs no hash either. */
  private readonly entries = new Map<string, Session>();
  /** Reads in flight, by bearer token: requests that miss together wait for the same one. */
  private readonly loading = new Map<string, Promise<Session | null>>();
  /** Moves whenever the cache is emptied: a lookup that started before does not store. */
  private generation = 0;
  private readonly watch: VersionWatch;

  constructor(
    private readonly database: Database,
    clock: Clock,
  ) {
    this.watch = new VersionWatch(database, AUTH_VERSION, () => this.invalidate(), clock);
  }

  /** Where the cache stands now: see `remember`. */
  get mark(): number {
    return this.generation;
  }

  /** Keeps a session made from rows read after `mark`, unless the cache was emptied since. */
  remember(token: string, session: Session, mark: number): void {
    if (mark !== this.generation) return;
    if (this.entries.size >= MAX_CACHED) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, session);
  }

  private readonly listeners: (() => void)[] = [];

  /** Called whenever the cache forgets every session: a session may have ended (the hub ends its streams). */
  onInvalidate(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Forgets every session: called after any write that ends a session or changes a user. */
  invalidate(): void {
    for (const listener of this.listeners) listener();
    this.entries.clear();
    // A request after this reads afresh: a read begun before the change may be stale.
    this.loading.clear();
    this.generation++;
  }

  /** The live session of a bearer token (its user and the token's hash), or null. */
  async find(token: string, now: number): Promise<Session | null> {
    if (token.length < 20 || token.length > 200) return null;
    await this.watch.check();
    const hit = this.entries.get(token);
    if (hit) {
      if (hit.expiresAt > now) return hit;
      this.entries.delete(token);
      return null;
    }
    // Requests that carry a token not yet seen, arriving together (a device delivering its
    // queued votes at once, the vote page's first calls after sign-in), share one read.
    const loading = this.loading.get(token);
    if (loading) return loading.then((session) => (session && session.expiresAt > now ? session : null));
    const lookup = this.load(token, now);
    this.loading.set(token, lookup);
    try {
      return await lookup;
    } finally {
      if (this.loading.get(token) === lookup) this.loading.delete(token);
    }
  }

  private async load(token: string, now: number): Promise<Session | null> {
    const generation = this.generation;
    const tokenHash = hashToken(token);
    const row = await sessionByTokenHash(this.database, tokenHash, now);
    if (!row) return null;
    const session: Session = {
      tokenHash,
      expiresAt: row.expiresAt,
      ...(row.stationSessionId === null ? {} : { stationSessionId: row.stationSessionId }),
      // Frozen: the same object serves every request of the session.
      user: Object.freeze({
        id: row.id,
        name: row.name,
        role: toRole(row.role),
        matricNumber: row.matricNumber,
        email: row.email,
        hasPassword: row.hasPassword,
      }),
    };
    this.remember(token, session, generation);
    return session;
  }
}

/** The statement that revokes `target`'s sessions (revokeSessions; a password change writes it with the new hash). */
export function revokeStatement(target: RevokeTarget, now: number): InStatement {
  return "tokenHash" in target
    ? { sql: `UPDATE sessions SET revoked_at = ${REVOKED_AT} WHERE token_hash = ? AND revoked_at IS NULL`, args: [now, sessionHour(now), target.tokenHash] }
    : {
        sql: `UPDATE sessions SET revoked_at = ${REVOKED_AT} WHERE user_id = ? AND token_hash <> ? AND (revoked_at IS NULL OR revoked_at > ?)`,
        args: [now, sessionHour(now), target.userId, target.keepTokenHash ?? "", now],
      };
}

export type RevokeTarget =
  /** One session (logout). */
  | { tokenHash: string }
  /** Every live session of a user but `keepTokenHash` (password change, an admin's reset, sign-in limits). */
  | { userId: string; keepTokenHash?: string };

/**
 * The one helper for ending sessions. Resolves after the commit, by which time this process
 * no longer serves them from memory; other processes stop within a second. Returns how
 * many sessions it ended.
 */
export async function revokeSessions({ database, sessions }: { database: Database; sessions: SessionCache }, target: RevokeTarget, now: number): Promise<number> {
  const [result] = await database.writer.submit([revokeStatement(target, now)]);
  sessions.invalidate();
  return result.rowsAffected;
}
