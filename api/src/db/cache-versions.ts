/**
 * Counters in `meta` that tell each process's in-memory caches that another process changed
 * what they hold. Triggers keep them, so every writer in every process moves them, whatever
 * code path it takes; a cache reads its counter at most once a second (`VersionWatch`) and
 * forgets what it holds when it moved. Changes made in the cache's own process reach it at
 * once, through Database.onWrite, before the write is acknowledged.
 *
 * - `auth_version`: a session revoked, re-dated or deleted; a user edited or deleted
 *   (services/auth/sessions.ts).
 * - `catalog_version`: a position or candidate added, deleted, or changed in what a vote is
 *   checked against: window, eligibility, abstain, name, position (services/votes/ballot-rules.ts).
 *   Tallies are not among them: the mixer moves them several times a second.
 *
 * Created at open with IF NOT EXISTS (idempotent, no migration slot needed): the counters are
 * cache signals, not data, and a database that lacks the triggers only loses the signal.
 */
import type { Database } from "./client.ts";

export const AUTH_VERSION = "auth_version";
export const CATALOG_VERSION = "catalog_version";

const bump = (key: string) => `INSERT INTO meta (key, value) VALUES ('${key}', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1`;
const auth = bump(AUTH_VERSION);
const catalog = bump(CATALOG_VERSION);

export const cacheVersionTriggers = [
  `CREATE TRIGGER IF NOT EXISTS auth_version_session_update AFTER UPDATE OF revoked_at, expires_at, user_id, token_hash ON sessions BEGIN ${auth}; END`,
  `CREATE TRIGGER IF NOT EXISTS auth_version_session_delete AFTER DELETE ON sessions BEGIN ${auth}; END`,
  `CREATE TRIGGER IF NOT EXISTS auth_version_user_update AFTER UPDATE OF name, role, matric_number, email, password_hash, groups ON users BEGIN ${auth}; END`,
  `CREATE TRIGGER IF NOT EXISTS auth_version_user_delete AFTER DELETE ON users BEGIN ${auth}; END`,
  `CREATE TRIGGER IF NOT EXISTS catalog_version_position_insert AFTER INSERT ON positions BEGIN ${catalog}; END`,
  `CREATE TRIGGER IF NOT EXISTS catalog_version_position_update AFTER UPDATE OF id, start_time, end_time, eligible_groups, allow_abstain ON positions BEGIN ${catalog}; END`,
  `CREATE TRIGGER IF NOT EXISTS catalog_version_position_delete AFTER DELETE ON positions BEGIN ${catalog}; END`,
  `CREATE TRIGGER IF NOT EXISTS catalog_version_candidate_insert AFTER INSERT ON candidates BEGIN ${catalog}; END`,
  `CREATE TRIGGER IF NOT EXISTS catalog_version_candidate_update AFTER UPDATE OF id, name, position_id ON candidates BEGIN ${catalog}; END`,
  `CREATE TRIGGER IF NOT EXISTS catalog_version_candidate_delete AFTER DELETE ON candidates BEGIN ${catalog}; END`,
];

const CHECK_EVERY_MS = 1_000;

/** Reads one counter at most once a second and calls `moved` when it changed since the last read. */
export class VersionWatch {
  private version: number | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly key: string,
    private readonly moved: () => void,
  ) {}

  /** undefined (nothing to wait for) within a second of the last read. */
  check(): Promise<void> | undefined {
    if (performance.now() - this.checkedAt < CHECK_EVERY_MS) return undefined;
    return (this.checking ??= (async () => {
      try {
        const row = await this.database.get(`SELECT value FROM meta WHERE key = '${this.key}'`);
        const version = Number(row?.value ?? 0);
        if (version !== this.version) {
          if (this.version !== null) this.moved();
          this.version = version;
        }
        this.checkedAt = performance.now();
      } finally {
        this.checking = null;
      }
    })());
  }
}

/**
 * Keeps an in-memory cache of `database` honest: `clear` runs when a write in this process
 * matches `touches` (before the write is acknowledged) and when `key` moved in another process
 * (checked through the returned watch, at most once a second).
 */
export function invalidateOn(database: Database, key: string, touches: (sql: string) => boolean, clear: () => void): VersionWatch {
  database.onWrite((statements) => {
    for (const st of statements) {
      if (touches(typeof st === "string" ? st : st.sql)) return clear();
    }
  });
  return new VersionWatch(database, key, clear);
}

