/**
 * Results maths (docs/product.md, The calls and Limits): percentages, turnout, leaders, top candidates, and
 * Yes/No, abstentions and ties. Every count, percentage and elected/tie decision
 * is made here and nowhere else; the denominators are recorded in
 * docs/decisions/0008-results-denominators.md:
 * - a percentage is of the votes that chose: candidate votes (Yes included) plus 'No';
 *   abstentions are excluded (an abstainer chose nobody);
 * - `totalVotes` counts every ballot, abstentions included (they count as having voted);
 * - a position's turnout is of its eligible voters.
 */
import { TOP_CANDIDATES_LIMIT } from "./constants.ts";
import type { BreakdownEntry, PositionResult, Results } from "./types.ts";

type ShareOf = Pick<PositionResult, "breakdown" | "noVotes"> & Partial<Pick<PositionResult, "method" | "totalVotes" | "abstentions">>;

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

/**
 * The votes a percentage is of: candidate (and Yes) votes plus 'No'; never abstentions. Several
 * seats: the position's ballots (each marks up to `seats` candidates), as its own card reads it,
 * so a candidate has one share on every tab.
 */
export function percentageBase(r: ShareOf): number {
  if (r.method === "multi" && r.totalVotes !== undefined) return r.totalVotes - (r.abstentions ?? 0);
  return r.breakdown.reduce((sum, b) => sum + b.votes, 0) + (r.noVotes ?? 0);
}

/** Share of the position's choosing votes, 0-100. */
export const sharePercent = (votes: number, r: ShareOf): number =>
  votePercentage(votes, percentageBase(r));

/**
 * Whether the position is decided by Yes/No: the flag the API sets with election-rules.ts
 * isYesNoBallot (one candidate, and the election's setting 'yes-no'; off by default).
 */
export const isYesNo = (r: Pick<PositionResult, "breakdown" | "yesNo">): boolean => r.yesNo === true && r.breakdown.length === 1;

export type PositionOutcome =
  | { kind: "no-votes" }
  | { kind: "leader"; leader: BreakdownEntry }
  | { kind: "tie"; tied: BreakdownEntry[] }
  /** Unopposed: elected only with more Yes than No. */
  | { kind: "elected" | "not-elected"; candidate: BreakdownEntry; yes: number; no: number };

export function positionOutcome(r: Pick<PositionResult, "breakdown" | "noVotes" | "yesNo">): PositionOutcome {
  if (isYesNo(r)) {
    const candidate = r.breakdown[0];
    const yes = candidate.votes;
    const no = r.noVotes ?? 0;
    if (yes + no === 0) return { kind: "no-votes" };
    return { kind: yes > no ? "elected" : "not-elected", candidate, yes, no };
  }
  const sorted = sortBreakdown(r.breakdown);
  const top = sorted[0];
  if (!top || top.votes === 0) return { kind: "no-votes" };
  const tied = sorted.filter((b) => b.votes === top.votes);
  return tied.length > 1 ? { kind: "tie", tied } : { kind: "leader", leader: top };
}

/** A position's own turnout: its voters (ballots waiting for their group too) over the voters allowed to vote there. */
export function positionTurnout(r: Pick<PositionResult, "totalVotes" | "eligibleVoters" | "waiting">, totalRegisteredVoters: number): number {
  return turnout(r.totalVotes + (r.waiting ?? 0), r.eligibleVoters ?? totalRegisteredVoters);
}

export interface Leader extends BreakdownEntry {
  positionId: string;
  positionTitle: string;
  percentage: number;
}

/**
 * One leader per position: the sole highest, or an unopposed candidate with more Yes than No.
 * Positions with no votes, a tie, or a rejected unopposed candidate have none.
 */
export function leadersByPosition(results: readonly PositionResult[]): Leader[] {
  return results.flatMap((r) => {
    const outcome = positionOutcome(r);
    const top = outcome.kind === "leader" ? outcome.leader : outcome.kind === "elected" ? outcome.candidate : null;
    if (!top) return [];
    return [{ ...top, positionId: r.positionId, positionTitle: r.positionTitle, percentage: sharePercent(top.votes, r) }];
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
        .map((b) => ({ ...b, positionId: r.positionId, positionTitle: r.positionTitle, percentage: sharePercent(b.votes, r) })),
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
