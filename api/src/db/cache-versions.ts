/**
 * Counters in `meta` that tell each process's in-memory caches that another process changed
 * what they hold. Triggers keep them, so every writer in every process moves them, whatever
 * code path it takes; a cache reads its counter at most once a second (`VersionWatch`) and
 * forgets what it holds when it moved. Changes made in the cache's own process reach it at
 * once: the code that writes them calls the cache's `invalidate()` after the commit.
 *
 * - `auth_version`: a session revoked, re-dated or deleted; a user edited or deleted
 *   (services/auth/sessions.ts).
 * - `catalog_version`: a position or candidate added, deleted, or changed in what a vote is
 *   checked against: window, eligibility, abstain, name, position (services/votes/ballot-rules.ts).
 *   Tallies are not among them: the mixer moves them several times a second.
 *
 * The triggers are in migration 0011 (api/drizzle/0011_cache_versions.sql).
 */
import type { Clock } from "../clock.ts";
import type { Database } from "./client.ts";
import { metaCounter } from "./hot-reads.ts";

export const AUTH_VERSION = "auth_version";
export const CATALOG_VERSION = "catalog_version";

const CHECK_EVERY_MS = 1_000;

/**
 * Reads one counter at most once a second and calls `moved` when it changed since the last read.
 * The second is on the app's clock (tests move it instead of waiting); a clock set back reads at
 * once rather than waiting for the old time to come round again.
 */
export class VersionWatch {
  private version: number | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly key: string,
    private readonly moved: () => void,
    private readonly clock: Clock,
  ) {}

  /** undefined (nothing to wait for) within a second of the last read. */
  check(): Promise<void> | undefined {
    const since = this.clock.now() - this.checkedAt;
    if (since >= 0 && since < CHECK_EVERY_MS) return undefined;
    return (this.checking ??= (async () => {
      try {
        const version = await metaCounter(this.database, this.key);
        if (version !== this.version) {
          if (this.version !== null) this.moved();
          this.version = version;
        }
        this.checkedAt = this.clock.now();
      } finally {
        this.checking = null;
      }
    })());
  }
}
