import type { PositionResult } from "@evoting/shared";
import type { PositionMethodRow } from "../results/method-results.ts";
import type { VerifiableTally } from "./verifiable.ts";

/**
 * A verifiable position in the results: no tallies while its ballots are sealed (every count 0,
 * `totalVotes` its ballot count), then the Result's counts, blank ballots as abstentions.
 */
export function applyVerifiable(entry: PositionResult, method: PositionMethodRow, v: VerifiableTally): { entry: PositionResult; method: PositionMethodRow } {
  const belenios = { state: v.state, verified: v.counts !== null, fingerprint: v.fingerprint };
  if (!v.counts) {
    return {
      entry: { ...entry, totalVotes: v.ballots, noVotes: 0, abstentions: 0, breakdown: entry.breakdown.map((b) => ({ ...b, votes: 0 })), belenios },
      method: { ...method, yes: 0, multiBallots: v.ballots },
    };
  }
  const offset = v.blank ? 1 : 0;
  const blank = v.blank ? v.counts[0] : 0;
  if (v.answerIds === null) {
    const yes = v.counts[offset];
    const no = v.counts[offset + 1];
    return { entry: { ...entry, noVotes: no, abstentions: blank, totalVotes: yes + no + blank, belenios }, method: { ...method, yes } };
  }
  const byId = new Map(v.answerIds.map((id, i) => [id, v.counts![offset + i]]));
  const breakdown = entry.breakdown.map((b) => ({ ...b, votes: byId.get(b.candidateId) ?? 0 }));
  const marked = v.ballots - blank;
  const marks = breakdown.reduce((n, b) => n + b.votes, 0);
  return {
    entry: { ...entry, breakdown, noVotes: 0, abstentions: blank, totalVotes: (method.method === "multi" ? marked : marks) + blank, belenios },
    method: { ...method, multiBallots: marked },
  };
}
