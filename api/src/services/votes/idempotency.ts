/**
 * How long Idempotency-Key answers live and how many a voter may hold (so refused votes
 * with fresh keys cannot pile up rows for ever).
 *
 * - A counted vote's key is on its participation (services/votes/cast.ts, migration 0009) and
 *   replays as long as the vote is held: one per position, which the database already bounds.
 * - A refused vote's key is a row of `idempotency_keys` (status 409) that keeps the hour it
 *   was written (never the millisecond) and is deleted once that hour is more than 24 h behind
 *   the current one: it stays replayable for at least 24 h and is gone within 26 h. Everyone's
 *   expired rows go first in each commit that carries a keyed vote (an index range on
 *   `created_hour`), before any key is checked, so an expired key counts as new. Counted
 *   votes' rows written before migration 0009 expire the same way.
 * - Cap: a voter keeps at most MAX_REFUSED_ANSWERS refused answers. Past that the OLDEST are
 *   dropped: the request is still answered, and a replay of a dropped key is simply checked
 *   again (and refused again with 'already voted'). Refusing with 429 instead would lock a
 *   voter who retried too often out of positions they have not voted for yet.
 */
import type { InStatement } from "@libsql/client";

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * Enforced by the trigger `idempotency_keys_refused_cap` (api/drizzle/0009_keyed_participation.sql,
 * which holds the same number): it runs when a refused answer is inserted, so a counted vote
 * pays nothing for it.
 */
export const MAX_REFUSED_ANSWERS = 32;
const HOUR = 3_600_000;

/** Rows written in an hour before this one are expired at `now`. */
export const expiredBefore = (now: number) => Math.floor(now / HOUR) * HOUR - IDEMPOTENCY_TTL_MS;

/** Everyone's expired rows: once per commit, before the votes' own statements (BatchWriter `once.first`). */
export const purgeAllExpired = (now: number): InStatement => ({
  sql: "DELETE FROM idempotency_keys WHERE created_hour < ?",
  args: [expiredBefore(now)],
});
