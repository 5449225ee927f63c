/**
 * Several seats by plurality: each ballot marks up to `seats` different candidates; the `seats`
 * candidates with most votes are elected. A tie across the last seat is reported as a tie
 * (`tied`), not broken: those candidates are not elected and the seats they tie for stay open
 * for the organisers' own rule. A candidate nobody voted for is never elected.
 */
import type { CountDecision, CountResult } from "./types.ts";

export interface PluralityCountInput {
  candidates: readonly string[];
  seats: number;
  /** each ballot: the candidate ids it marks */
  ballots: readonly (readonly string[])[];
}

export function countPlurality(input: PluralityCountInput): CountResult {
  const seats = Math.max(1, Math.floor(input.seats));
  const votes = new Map(input.candidates.map((id) => [id, 0]));
  let counted = 0;
  for (const ballot of input.ballots) {
    const marks = new Set(ballot.filter((id) => votes.has(id)));
    if (marks.size === 0) continue;
    counted++;
    for (const id of marks) votes.set(id, votes.get(id)! + 1);
  }
  return pluralityResult(input.candidates, seats, votes, counted);
}

/** The decision from finished tallies (the API keeps running tallies and calls this directly). */
export function pluralityResult(candidates: readonly string[], seats: number, votes: ReadonlyMap<string, number>, ballots: number): CountResult {
  const ranked = [...candidates].sort((a, b) => (votes.get(b) ?? 0) - (votes.get(a) ?? 0));
  const cut = votes.get(ranked[seats - 1]) ?? 0;
  const firstOut = ranked.length > seats ? (votes.get(ranked[seats]) ?? 0) : -1;
  const tieAtCut = cut > 0 && firstOut === cut;
  const elected = ranked.filter((id) => {
    const v = votes.get(id) ?? 0;
    return v > 0 && (tieAtCut ? v > cut : ranked.indexOf(id) < seats);
  });
  const tied = tieAtCut ? ranked.filter((id) => votes.get(id) === cut) : [];
  const decisions: CountDecision[] = elected.map((candidateId) => ({ candidateId, outcome: "elected", reason: "most-votes" }));
  return {
    rule: "plurality",
    seats,
    ballots,
    elected,
    tied,
    rounds: [
      {
        votes: Object.fromEntries(candidates.map((id) => [id, votes.get(id) ?? 0])),
        elected,
        excluded: [],
        nonTransferable: 0,
        lostToRounding: 0,
        stage: { kind: "first" },
        decisions,
      },
    ],
    lotSeed: "",
  };
}
