/**
 * What a multi, ranked or referendum position adds to its results entry (docs/counting.md):
 * who is elected (or tied), the count's rounds, the referendum's outcome. All decisions are the
 * shared counting code's (shared/src/counting); this only feeds it the tallies and, for a closed
 * ranked position, has its ballots counted in the count thread (counter.ts), off the event loop.
 */
import { pluralityResult, referendumOutcome, type BallotMethod, type CountRule, type PositionResult } from "@evoting/shared";
import type { Database } from "../../db/client.ts";
import { countRanked } from "./counter.ts";

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
      const rule = row.seats > 1 ? ("scottish-stv" as const) : ("instant-runoff" as const) satisfies CountRule;
      const base = { ...entry, method: "ranked" as const, seats: row.seats, rule, lotSeed: entry.positionId };
      if (!closed && !row.liveCount) return { ...base, count: "first-preferences", endTime: new Date(row.endTime).toISOString() };
      const result = await countRanked(database, entry.positionId, { candidates, seats: row.seats, rule, lotSeed: entry.positionId });
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
