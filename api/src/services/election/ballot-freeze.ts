/** When a position's candidate list freezes: at its first vote (docs/decisions/0001). */

/**
 * Candidates may not join, leave or move between positions once a position has a vote. A vote
 * is a pending ballot until the mixer applies it, and a ballot counted in a tally after: the
 * commit that deletes the pending row inserts the ballot and raises its tally (`npm run audit`
 * checks tallies against a recount). Both are indexed by position; participations and ballots
 * are not (migration 0010). `param` is used twice; qualify a column (`candidates.position_id`).
 */
export const positionHasVoteSql = (param = "?") =>
  `(EXISTS (SELECT 1 FROM pending_ballots q WHERE q.position_id = ${param})
    OR EXISTS (SELECT 1 FROM positions t WHERE t.id = ${param} AND (t.no_count > 0 OR t.abstain_count > 0 OR t.yes_count > 0
      OR EXISTS (SELECT 1 FROM candidates k WHERE k.position_id = t.id AND k.vote_count > 0))))`;
