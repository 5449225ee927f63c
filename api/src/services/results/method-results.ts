/**
 * What a multi, ranked or referendum position adds to its results entry (DESIGN.md section 8):
 * who is elected (or tied), the count's rounds, the referendum's outcome. All decisions are the
 * shared counting code's (shared/src/counting); this only feeds it the tallies and, for a closed
 * ranked position, its ballots.
 */
import {
  countInstantRunoff,
  countStv,
  decodeMarks,
  pluralityResult,
  referendumOutcome,
  type BallotMethod,
  type CountRule,
  type PositionResult,
} from "@evoting/shared";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { ballots } from "../../db/schema.ts";

export interface PositionMethodRow {
  method: BallotMethod;
  seats: number;
  question: string | null;
  passThreshold: number;
  yes: number;
  multiBallots: number;
  endTime: number;
  /** Ranked: the admin chose to show the full count while voting is open. */
  liveCount: boolean;
}

/** A ranked position's ballots, as stored (shared `encodeMarks`), first preference first. */
export async function rankedBallots(database: Database, positionId: string): Promise<string[][]> {
  const rows = await database.db
    .select({ marks: ballots.marks })
    .from(ballots)
    .where(and(eq(ballots.positionId, positionId), eq(ballots.choice, "ranked")));
  return rows.map((r) => decodeMarks(r.marks));
}

/**
 * The entry's method fields. `closed`: voting (with its offline grace) is over, so a ranked
 * position shows its full count; while open it shows first preferences only, as counting
 * transfers before every ballot is in would announce a result that may not stand, unless the
 * admin chose the live count (`liveCount`) for this position.
 */
export async function withMethod(database: Database, entry: PositionResult, row: PositionMethodRow, closed: boolean): Promise<PositionResult> {
  const candidates = entry.breakdown.map((b) => b.candidateId);
  const abstentions = entry.abstentions ?? 0;
  switch (row.method) {
    case "single":
      return entry;
    case "multi": {
      const votes = new Map(entry.breakdown.map((b) => [b.candidateId, b.votes]));
      const count = pluralityResult(candidates, row.seats, votes, row.multiBallots);
      // Each ballot marks up to `seats` candidates: the position's votes are its ballots, not its marks.
      return { ...entry, totalVotes: row.multiBallots + abstentions, method: "multi", seats: row.seats, elected: count.elected, tied: count.tied };
    }
    case "ranked": {
      const rule: CountRule = row.seats > 1 ? "scottish-stv" : "instant-runoff";
      const base = { ...entry, method: "ranked" as const, seats: row.seats, rule, lotSeed: entry.positionId };
      if (!closed && !row.liveCount) return { ...base, count: "first-preferences" };
      const input = { candidates, seats: row.seats, ballots: await rankedBallots(database, entry.positionId), lotSeed: entry.positionId };
      const result = rule === "scottish-stv" ? countStv(input) : countInstantRunoff(input);
      return {
        ...base,
        count: "full",
        elected: result.elected,
        rounds: result.rounds,
        ...(result.quota !== undefined ? { quota: result.quota } : {}),
      };
    }
    case "referendum": {
      const no = entry.noVotes ?? 0;
      return {
        ...entry,
        totalVotes: row.yes + no + abstentions,
        method: "referendum",
        seats: 1,
        question: row.question,
        passThreshold: row.passThreshold,
        referendum: referendumOutcome(row.yes, no, abstentions, row.passThreshold),
      };
    }
  }
}
