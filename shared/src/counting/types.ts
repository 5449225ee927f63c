/**
 * What a count reports, whatever the method: the rounds (stages) in order, who was elected or
 * excluded at each and why, and the non-transferable votes. Vote figures are plain numbers;
 * STV figures carry at most five decimal places (the Scottish rules' precision).
 */

/** The published rule set a count followed; the results name it. */
export type CountRule = "plurality" | "instant-runoff" | "scottish-stv";

/** Why a candidate was elected or excluded at a stage. */
export type DecisionReason =
  /** reached the quota (STV) */
  | "quota"
  /** more than half of the votes still in the count (instant-runoff) */
  | "majority"
  /** as many continuing candidates as seats left (rule 52 for STV; the last one standing for IRV) */
  | "last-seats"
  /** among the `seats` candidates with most votes (plurality) */
  | "most-votes"
  /** the lowest number of votes when someone had to be excluded */
  | "lowest";

/** How a tie in a decision was resolved: by an earlier stage's figures, or by the seeded lot. */
export type TieBreak = "earlier-stage" | "lot";

export interface CountDecision {
  candidateId: string;
  outcome: "elected" | "excluded";
  reason: DecisionReason;
  /** present when the decision needed a tie-break among `tiedWith` (the candidate included) */
  tieBreak?: TieBreak;
  tiedWith?: string[];
}

export interface CountRound {
  /** each candidate's votes at the end of this stage (0 once excluded and transferred) */
  votes: Record<string, number>;
  elected: string[];
  excluded: string[];
  /** value of the papers with no next available preference so far (cumulative) */
  nonTransferable: number;
  /** value lost by truncating transfer values to five decimal places so far (cumulative) */
  lostToRounding: number;
  /** what this stage did: first preferences, or the transfer of a surplus or an excluded candidate's papers */
  stage: { kind: "first" } | { kind: "surplus" | "exclusion"; from: string; tieBreak?: TieBreak; tiedWith?: string[] };
  decisions: CountDecision[];
}

export interface CountResult {
  rule: CountRule;
  seats: number;
  /** valid ballots counted */
  ballots: number;
  /** votes needed to be elected (STV's Droop quota); absent for other rules */
  quota?: number;
  /** in the order of election */
  elected: string[];
  /** plurality only: candidates tied for the last seat(s), none of them elected */
  tied: string[];
  rounds: CountRound[];
  /** the seed that decided ties by lot, published with the result */
  lotSeed: string;
}
