/**
 * How long Idempotency-Key rows live and how many a voter may hold (issue 9: refused votes
 * with fresh keys used to store one permanent row each).
 *
 * - Expiry: a row keeps the hour it was written (never the millisecond) and is deleted once
 *   that hour is more than 24 h behind the current one: every answer stays replayable for at
 *   least 24 h and is gone within 26 h. Everyone's expired rows go first in each commit that
 *   carries a keyed vote (an index range on `created_hour`), before any key is claimed, so an
 *   expired key counts as new.
 * - Cap: a voter keeps at most one counted answer (201) per position, which the database
 *   already bounds, plus MAX_REFUSED_ANSWERS refused answers (409). Past that the OLDEST
 *   refused answers are dropped, never a vote's: the request is still answered, and a replay
 *   of a dropped key is simply checked again (and refused again with 'already voted').
 *   Refusing with 429 instead would lock a voter who retried too often out of positions they
 *   have not voted for yet.
 */
import type { InStatement } from "@libsql/client";

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
export const MAX_REFUSED_ANSWERS = 32;
const HOUR = 3_600_000;

/** Rows written in an hour before this one are expired at `now`. */
export const expiredBefore = (now: number) => Math.floor(now / HOUR) * HOUR - IDEMPOTENCY_TTL_MS;

/** Everyone's expired rows: once per commit, before the votes' own statements (BatchWriter `once.first`). */
export const purgeAllExpired = (now: number): InStatement => ({
  sql: "DELETE FROM idempotency_keys WHERE created_hour < ?",
  args: [expiredBefore(now)],
});

/**
 * Last in a keyed vote's submission, right after the rewrite of its own row to 409: drops
 * the voter's oldest refused answers past the cap, never the one just written. Only a
 * refused vote adds a refused answer, so it does nothing unless that rewrite changed a row
 * (`changes()`); the guard sits in the one-row subquery SQLite evaluates first, so a counted
 * vote pays no search of the voter's rows (5 µs instead of 15 µs: issue 13).
 */
export const capRefusedAnswers = (voterId: string, nonce: string): InStatement => ({
  sql: `DELETE FROM idempotency_keys WHERE user_id = (SELECT ?1 WHERE changes() = 1) AND key IN (
          SELECT key FROM idempotency_keys WHERE user_id = ?1 AND status = 409 AND nonce <> ?2
           ORDER BY created_hour, key
           LIMIT max(0, (SELECT count(*) FROM idempotency_keys WHERE user_id = ?1 AND status = 409) - ?3))`,
  args: [voterId, nonce, MAX_REFUSED_ANSWERS],
});
