/**
 * The returning officer's consistency check: for every position the number of ballots, plus
 * the ballots still waiting for the mixer (services/votes/mixer.ts; sealed, so counted but not
 * tallied yet), equals the number of participation records, and every candidate's tally
 * (and every position's 'no' and 'abstain' tally) equals its ballots.
 */
import type { Database } from "../../db/client.ts";
import type { Keys } from "../../security/keys.ts";
import { appliedPendingByPosition } from "../votes/mixer.ts";

/**
 * Per position: its stored 'no' and 'abstain' tallies, and a recount of its ballots (by kind),
 * pending ballots and participations. One pass over each table (GROUP BY), since neither
 * ballots nor participations has an index by position (migration 0010).
 */
const RECOUNT_BY_POSITION_SQL = `
  SELECT p.id AS position_id, p.no_count, p.abstain_count, p.yes_count, p.multi_count,
         coalesce(b.ballots, 0) + coalesce(vb.ballots, 0) AS ballots, coalesce(b.no_counted, 0) AS no_counted, coalesce(b.abstain_counted, 0) AS abstain_counted,
         coalesce(b.yes_counted, 0) AS yes_counted, coalesce(b.multi_counted, 0) AS multi_counted,
         coalesce(q.pending, 0) AS pending, coalesce(x.participations, 0) AS participations
    FROM positions p
    LEFT JOIN (SELECT position_id, count(*) AS ballots, sum(choice = 'no') AS no_counted, sum(choice = 'abstain') AS abstain_counted,
                      sum(choice = 'yes') AS yes_counted, sum(choice = 'multi') AS multi_counted
                 FROM ballots GROUP BY position_id) b ON b.position_id = p.id
    LEFT JOIN (SELECT position_id, count(*) AS pending FROM pending_ballots GROUP BY position_id) q ON q.position_id = p.id
    -- A verifiable position's ballots are on its board, one row per credential that voted.
    LEFT JOIN (SELECT position_id, count(*) AS ballots FROM belenios_ballots GROUP BY position_id) vb ON vb.position_id = p.id
    LEFT JOIN (SELECT position_id, count(*) AS participations FROM participations GROUP BY position_id) x ON x.position_id = p.id`;

/**
 * Every candidate's stored tally and a recount of their ballots, in one pass over the ballots:
 * what shared `talliedCandidates` says a ballot raises (its candidate: a single choice or a
 * ranking's first preference; each mark of a several-seat ballot).
 */
const RECOUNT_BY_CANDIDATE_SQL = `
  SELECT c.id, c.vote_count, coalesce(b.counted, 0) AS counted
    FROM candidates c
    LEFT JOIN (SELECT id, count(*) AS counted FROM (
                 SELECT candidate_id AS id FROM ballots WHERE candidate_id IS NOT NULL
                 UNION ALL SELECT m.value FROM ballots, json_each(ballots.marks) m WHERE ballots.choice = 'multi')
               GROUP BY id) b
      ON b.id = c.id`;

export interface TallyCheckReport {
  ok: boolean;
  ballots: number;
  /** Ballots committed with their participation and not applied by the mixer yet. */
  pending: number;
  /**
   * Pending rows whose ballot is applied already: the mixer deletes a pass's pending rows in
   * its last commit, so these are a pass still running, or one a crash cut off (the next pass
   * deletes them). Told apart only with the server's key; without it they count as pending.
   */
  appliedPending: number;
  participations: number;
  positionMismatches: { positionId: string; ballots: number; pending: number; participations: number }[];
  tallyMismatches: { id: string; vote_count: number; counted: number }[];
  /** Positions whose 'no' or 'abstain' tally differs from a recount of their ballots. */
  choiceTallyMismatches: { positionId: string; choice: "no" | "abstain" | "yes" | "multi"; stored: number; counted: number }[];
  integrity: string;
}

/** The recounts, in the order `tallyReport` takes them. */
export const TALLY_READS: readonly string[] = [
  `SELECT (SELECT count(*) FROM ballots) + (SELECT count(*) FROM belenios_ballots) AS ballots, (SELECT count(*) FROM pending_ballots) AS pending,
          (SELECT count(*) FROM participations) AS participations`,
  RECOUNT_BY_POSITION_SQL,
  "PRAGMA quick_check",
  RECOUNT_BY_CANDIDATE_SQL,
];

/**
 * With the key, beside the recounts: the pending rows, and the ids of the ballots of the
 * positions that have any (where a pending row's ballot, once applied, is).
 */
const PENDING_READS: readonly string[] = [
  "SELECT id, position_id, sealed FROM pending_ballots",
  "SELECT id FROM ballots WHERE position_id IN (SELECT position_id FROM pending_ballots)",
];

/**
 * Reads only through the client, so a bench's plain libSQL client can be audited too. With
 * the server's keys, pending rows whose ballot is applied already count as applied. Every
 * read is in one read batch: one consistent picture whatever the mixer commits meanwhile,
 * and the connection is held only within that one call, never across an await.
 */
export async function checkTallies(database: Pick<Database, "client">, keys?: Pick<Keys, "seal"> | null): Promise<TallyCheckReport> {
  if (!keys) return tallyReport(await database.client.batch([...TALLY_READS], "read"), new Map());
  const rs = await database.client.batch([...TALLY_READS, ...PENDING_READS], "read");
  const [pending, beside] = rs.slice(TALLY_READS.length);
  return tallyReport(rs, appliedPendingByPosition(keys, pending.rows, new Set(beside.rows.map((r) => String(r.id)))));
}

/** Rows as the client or a direct connection (db/direct.ts) returns them: read by column name. */
export type ReadRows = { rows: readonly Record<string, unknown>[] };

/** The report from the results of `TALLY_READS` (first in `recounts`) and the applied pending rows per position. */
export function tallyReport(recounts: readonly ReadRows[], applied: Map<string, number>): TallyCheckReport {
  const [totals, perPosition, integrity, perCandidate] = recounts;
  const appliedPending = [...applied.values()].reduce((sum, n) => sum + n, 0);
  const choiceTallyMismatches = perPosition.rows.flatMap((r) =>
    (["no", "abstain", "yes", "multi"] as const).flatMap((choice) => {
      const stored = Number(r[`${choice}_count`]);
      const counted = Number(r[`${choice}_counted`]);
      return stored === counted ? [] : [{ positionId: String(r.position_id), choice, stored, counted }];
    }),
  );
  const positionMismatches = perPosition.rows
    .map((r) => ({
      positionId: String(r.position_id),
      ballots: Number(r.ballots),
      pending: Number(r.pending) - (applied.get(String(r.position_id)) ?? 0),
      participations: Number(r.participations),
    }))
    .filter((r) => r.ballots + r.pending !== r.participations);
  const tallyMismatches = perCandidate.rows
    .map((r) => ({ id: String(r.id), vote_count: Number(r.vote_count), counted: Number(r.counted) }))
    .filter((r) => r.vote_count !== r.counted);
  const integrityResult = String(integrity.rows[0]?.quick_check ?? "unknown");
  return {
    ok: positionMismatches.length === 0 && tallyMismatches.length === 0 && choiceTallyMismatches.length === 0 && integrityResult === "ok",
    ballots: Number(totals.rows[0].ballots),
    pending: Number(totals.rows[0].pending) - appliedPending,
    appliedPending,
    participations: Number(totals.rows[0].participations),
    positionMismatches,
    tallyMismatches,
    choiceTallyMismatches,
    integrity: integrityResult,
  };
}
