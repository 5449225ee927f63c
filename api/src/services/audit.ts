/**
 * The returning officer's consistency check: for every position the number of ballots, plus
 * the ballots still waiting for the mixer (services/mixer.ts; sealed, so counted but not
 * tallied yet), equals the number of participation records, and every candidate's tally
 * (and every position's 'no' and 'abstain' tally) equals its ballots.
 */
import type { Database } from "../db/client.ts";
import { auditTallies } from "./results.ts";

export interface AuditReport {
  ok: boolean;
  ballots: number;
  /** Ballots committed with their participation and not applied by the mixer yet. */
  pending: number;
  participations: number;
  positionMismatches: { positionId: string; ballots: number; pending: number; participations: number }[];
  tallyMismatches: { id: string; vote_count: number; counted: number }[];
  /** Positions whose 'no' or 'abstain' tally differs from a recount of their ballots. */
  choiceTallyMismatches: { positionId: string; choice: "no" | "abstain"; stored: number; counted: number }[];
  integrity: string;
}

export async function auditDatabase(database: Database): Promise<AuditReport> {
  const [totals, perPosition, integrity, choiceTallies] = await database.client.batch(
    [
      `SELECT (SELECT count(*) FROM ballots) AS ballots, (SELECT count(*) FROM pending_ballots) AS pending,
              (SELECT count(*) FROM participations) AS participations`,
      `SELECT p.id AS position_id,
              (SELECT count(*) FROM ballots b WHERE b.position_id = p.id) AS ballots,
              (SELECT count(*) FROM pending_ballots q WHERE q.position_id = p.id) AS pending,
              (SELECT count(*) FROM participations x WHERE x.position_id = p.id) AS participations
         FROM positions p`,
      "PRAGMA quick_check",
      `SELECT id, no_count, abstain_count,
              (SELECT count(*) FROM ballots b WHERE b.position_id = p.id AND b.choice = 'no') AS no_counted,
              (SELECT count(*) FROM ballots b WHERE b.position_id = p.id AND b.choice = 'abstain') AS abstain_counted
         FROM positions p`,
    ],
    "read",
  );
  const choiceTallyMismatches = choiceTallies.rows.flatMap((r) =>
    (["no", "abstain"] as const).flatMap((choice) => {
      const stored = Number(r[`${choice}_count`]);
      const counted = Number(r[`${choice}_counted`]);
      return stored === counted ? [] : [{ positionId: String(r.id), choice, stored, counted }];
    }),
  );
  const positionMismatches = perPosition.rows
    .map((r) => ({
      positionId: String(r.position_id),
      ballots: Number(r.ballots),
      pending: Number(r.pending),
      participations: Number(r.participations),
    }))
    .filter((r) => r.ballots + r.pending !== r.participations);
  const tallyMismatches = await auditTallies(database);
  const integrityResult = String(integrity.rows[0]?.[0] ?? "unknown");
  return {
    ok: positionMismatches.length === 0 && tallyMismatches.length === 0 && choiceTallyMismatches.length === 0 && integrityResult === "ok",
    ballots: Number(totals.rows[0].ballots),
    pending: Number(totals.rows[0].pending),
    participations: Number(totals.rows[0].participations),
    positionMismatches,
    tallyMismatches,
    choiceTallyMismatches,
    integrity: integrityResult,
  };
}
