/**
 * How a several-seat, ranked or referendum position's result reads (the decisions themselves are
 * the API's, made by shared/src/counting): who is elected or tied, whether the count is final,
 * a referendum's verdict, and each stage of a ranked count in words.
 */
import type { CountDecision, CountRound, PositionResult } from "@evoting/shared";
import { ruleNames, thresholdText } from "../../lib/ballot-method";

export const isMethodResult = (r: PositionResult) => r.method === "multi" || r.method === "ranked" || r.method === "referendum";

export const nameIn = (r: PositionResult) => (id: string) => r.breakdown.find((b) => b.candidateId === id)?.name ?? id;

/** Figures of a count: whole votes as integers, transferred values to at most five decimals (the rules' precision). */
export function countFigure(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(5).replace(/0+$/, "");
}

export type MethodOutcome =
  | { kind: "no-votes" }
  /** ranked, voting still open: first preferences only */
  | { kind: "first-preferences"; leader: string | null }
  | { kind: "elected"; elected: string[]; tied: string[] }
  | { kind: "referendum"; passed: boolean; yes: number; no: number; abstentions: number; threshold: string };

export function methodOutcome(r: PositionResult): MethodOutcome {
  const name = nameIn(r);
  if (r.method === "referendum") {
    const o = r.referendum ?? { yes: 0, no: 0, abstentions: 0, passed: false };
    if (o.yes + o.no + o.abstentions === 0) return { kind: "no-votes" };
    return { kind: "referendum", ...o, threshold: thresholdText(r.passThreshold) };
  }
  if (r.totalVotes === 0) return { kind: "no-votes" };
  if (r.method === "ranked" && r.count !== "full") {
    const sorted = [...r.breakdown].sort((a, b) => b.votes - a.votes);
    const leader = sorted[0] && sorted[0].votes > (sorted[1]?.votes ?? -1) ? sorted[0].name : null;
    return { kind: "first-preferences", leader };
  }
  return { kind: "elected", elected: (r.elected ?? []).map(name), tied: (r.tied ?? []).map(name) };
}

/** 'Scottish STV (quota 3)', 'Instant-runoff', 'Most votes'. */
export function ruleText(r: PositionResult): string {
  if (r.method === "ranked") return `${ruleNames[r.rule ?? (r.seats && r.seats > 1 ? "scottish-stv" : "instant-runoff")]}${r.quota !== undefined ? ` (quota ${countFigure(r.quota)})` : ""}`;
  return ruleNames.plurality;
}

export function stageTitle(round: CountRound, name: (id: string) => string): string {
  if (round.stage.kind === "first") return "First preferences";
  return `${round.stage.kind === "surplus" ? "Surplus of" : "Exclusion of"} ${name(round.stage.from)}`;
}

const reasons: Record<CountDecision["reason"], string> = {
  quota: "reached the quota",
  majority: "more than half of the votes still in the count",
  "last-seats": "as many candidates left as seats to fill",
  "most-votes": "most votes",
  lowest: "fewest votes",
};

/** 'Ada elected: reached the quota', 'Margaret excluded: fewest votes (tie decided by lot)'. */
export function decisionText(d: CountDecision, name: (id: string) => string): string {
  const tie = d.tieBreak === "lot" ? " (tie decided by lot)" : d.tieBreak === "earlier-stage" ? " (tie decided by an earlier stage)" : "";
  return `${name(d.candidateId)} ${d.outcome}: ${reasons[d.reason]}${tie}`;
}
