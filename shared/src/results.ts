/** Results maths (spec section 3 and 9): percentages, turnout, leaders, top candidates. */
import { TOP_CANDIDATES_LIMIT } from "./constants.ts";
import type { BreakdownEntry, PositionResult, Results } from "./types.ts";

export function votePercentage(votes: number, positionTotal: number): number {
  return positionTotal > 0 ? (votes / positionTotal) * 100 : 0;
}

export function turnout(totalVotesCast: number, totalRegisteredVoters: number): number {
  return totalRegisteredVoters > 0 ? (totalVotesCast / totalRegisteredVoters) * 100 : 0;
}

export const formatPercent = (value: number, decimals = 1): string => `${value.toFixed(decimals)}%`;

/** Breakdown sorted by votes descending, then by name so ties read the same everywhere. */
export function sortBreakdown(entries: readonly BreakdownEntry[]): BreakdownEntry[] {
  return [...entries].sort((a, b) => b.votes - a.votes || a.name.localeCompare(b.name));
}

export interface Leader extends BreakdownEntry {
  positionId: string;
  positionTitle: string;
  percentage: number;
}

/** One leader per position (the highest votes); positions with no votes have none. */
export function leadersByPosition(results: readonly PositionResult[]): Leader[] {
  return results.flatMap((r) => {
    const top = sortBreakdown(r.breakdown)[0];
    if (!top || top.votes === 0) return [];
    return [{ ...top, positionId: r.positionId, positionTitle: r.positionTitle, percentage: votePercentage(top.votes, r.totalVotes) }];
  });
}

export interface RankedCandidate extends Leader {
  rank: number;
}

/** Top candidates across positions by vote count, at most ten. */
export function topCandidates(results: readonly PositionResult[], limit = TOP_CANDIDATES_LIMIT): RankedCandidate[] {
  return results
    .flatMap((r) =>
      r.breakdown
        .filter((b) => b.votes > 0)
        .map((b) => ({ ...b, positionId: r.positionId, positionTitle: r.positionTitle, percentage: votePercentage(b.votes, r.totalVotes) })),
    )
    .sort((a, b) => b.votes - a.votes || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((c, i) => ({ ...c, rank: i + 1 }));
}

export type RankColour = "gold" | "silver" | "bronze" | "blue";
export function rankColour(rank: number): RankColour {
  return rank === 1 ? "gold" : rank === 2 ? "silver" : rank === 3 ? "bronze" : "blue";
}

export function hasAnyVotes(results: Pick<Results, "results">): boolean {
  return results.results.some((r) => r.totalVotes > 0);
}
