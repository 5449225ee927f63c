/**
 * How long Idempotency-Key rows live and how many a voter may hold (issue 9: refused votes
 * with fresh keys used to store one permanent row each).
 *
 * - Expiry: a row keeps the hour it was written (never the millisecond) and is deleted once
 *   that hour is more than 24 h behind the current one: every answer stays replayable for at
 *   least 24 h and is gone within 26 h. The voter's own expired rows go in each of their keyed
 *   votes' commits (before the key is claimed, so an expired key counts as new); everyone's
 *   go once per commit that carries a keyed vote (an index range on `created_hour`).
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

/** This voter's expired rows: first in their keyed vote's submission. */
export const purgeVoterExpired = (voterId: string, now: number): InStatement => ({
  sql: "DELETE FROM idempotency_keys WHERE user_id = ? AND created_hour < ?",
  args: [voterId, expiredBefore(now)],
});

/** Everyone's expired rows: once per commit (BatchWriter `once`). */
export const purgeAllExpired = (now: number): InStatement => ({
  sql: "DELETE FROM idempotency_keys WHERE created_hour < ?",
  args: [expiredBefore(now)],
});

/** Last in a keyed vote's submission: drops the voter's oldest refused answers past the cap, never the one just written. */
export const capRefusedAnswers = (voterId: string, nonce: string): InStatement => ({
  sql: `DELETE FROM idempotency_keys WHERE user_id = ?1 AND key IN (
          SELECT key FROM idempotency_keys WHERE user_id = ?1 AND status = 409 AND nonce <> ?2
           ORDER BY created_hour, key
           LIMIT max(0, (SELECT count(*) FROM idempotency_keys WHERE user_id = ?1 AND status = 409) - ?3))`,
  args: [voterId, nonce, MAX_REFUSED_ANSWERS],
});
