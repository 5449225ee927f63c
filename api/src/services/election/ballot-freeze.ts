/** When a position's candidate list freezes: at its first vote (docs/decisions/0001). */
import type { Database } from "../../db/client.ts";
import { CURRENT_POSITIONS_SQL } from "../../db/elections.ts";

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

/**
 * A position holds a ballot: a voter's participation (written with the ballot, counted or still
 * waiting for the mixer) or a ballot held from a station device reported lost. Such a position
 * cannot be deleted (docs/decisions/0001). `param` is used twice.
 */
export const positionHasBallotSql = (param = "?") =>
  `(EXISTS (SELECT 1 FROM participations p WHERE p.position_id = ${param})
    OR EXISTS (SELECT 1 FROM disputed_ballots d, json_each(d.positions) j WHERE j.value = ${param}))`;

/** Ballots per position of the current election (counted, waiting or held), for the admin's positions list. */
export async function ballotsByPosition(database: Database): Promise<Map<string, number>> {
  const rs = await database.client.execute(
    `SELECT position_id AS id, count(*) AS n FROM (
       SELECT position_id FROM participations WHERE position_id IN ${CURRENT_POSITIONS_SQL}
       UNION ALL SELECT j.value FROM disputed_ballots d, json_each(d.positions) j WHERE j.value IN ${CURRENT_POSITIONS_SQL}
     ) GROUP BY position_id`,
  );
  return new Map(rs.rows.map((r) => [String(r.id), Number(r.n)]));
}
