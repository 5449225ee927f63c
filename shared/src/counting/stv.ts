/**
 * Ranked counts: the single transferable vote by the Scottish Local Government Elections Order
 * 2007 (SSI 2007/42, schedule 1, rules 45-52) for several seats, and instant-runoff for one.
 *
 * Scottish STV, as the rules say:
 * - quota (rule 46): valid ballots / (seats + 1), decimals ignored, plus one;
 * - a candidate whose votes equal or exceed the quota is elected (rule 47);
 * - a surplus is transferred by the weighted inclusive Gregory method (rule 48): every paper
 *   the elected candidate holds moves to its next available preference at
 *   surplus x (the paper's value) / (the candidate's votes), to five decimal places with the
 *   remainder ignored; the largest surplus goes first (rule 49);
 * - when no surplus is left, the candidate with fewest votes is excluded and each of their papers
 *   moves at the value it had (rule 50);
 * - ties (equal surpluses, equal lowest) go to the most recent preceding stage at which the tied
 *   candidates had unequal votes, then to lot (rules 49(2)-(3), 51) - here a seeded draw (lot.ts);
 * - when the continuing candidates are as many as the seats left, they are elected (rule 52).
 *
 * Instant-runoff is the same machinery with one seat and, instead of the quota, more than half
 * of the votes still held by continuing candidates.
 *
 * Figures are kept as integers in units of 0.00001 so the five-decimal arithmetic is exact.
 * Identical rankings are counted as one parcel with a weight: every paper in it always has the
 * same value and next preference, so the result is the paper-by-paper count's.
 */
import { drawLot } from "./lot.ts";
import type { CountDecision, CountResult, CountRound, DecisionReason, TieBreak } from "./types.ts";

const UNIT = 100_000;

type State = "continuing" | "elected" | "excluded";

interface Parcel {
  prefs: number[];
  /** index in prefs of the candidate holding this parcel */
  at: number;
  /** value of each paper, in units */
  value: number;
  papers: number;
}

export interface RankedCountInput {
  /** candidate ids; anything else on a ballot is ignored */
  candidates: readonly string[];
  seats: number;
  /** each ballot: candidate ids, first preference first */
  ballots: readonly (readonly string[])[];
  /** papers per ballot, index for index (a BLT file's weights); 1 each when absent */
  weights?: readonly number[];
  /** published seed for ties decided by lot (e.g. the position's id) */
  lotSeed: string;
}

/** Groups identical rankings; drops unknown ids and repeats (the API refuses them anyway). */
function parcels(candidates: readonly string[], ballots: readonly (readonly string[])[], weights?: readonly number[]): Parcel[] {
  const index = new Map(candidates.map((id, i) => [id, i]));
  const byKey = new Map<string, Parcel>();
  for (let b = 0; b < ballots.length; b++) {
    const ballot = ballots[b];
    const papers = weights?.[b] ?? 1;
    if (papers <= 0) continue;
    const prefs: number[] = [];
    for (const id of ballot) {
      const i = index.get(id);
      if (i !== undefined && !prefs.includes(i)) prefs.push(i);
    }
    if (prefs.length === 0) continue;
    const key = prefs.join(",");
    const found = byKey.get(key);
    if (found) found.papers += papers;
    else byKey.set(key, { prefs, at: 0, value: UNIT, papers });
  }
  return [...byKey.values()];
}

export function countStv(input: RankedCountInput): CountResult {
  return count(input, "scottish-stv");
}

export function countInstantRunoff(input: Omit<RankedCountInput, "seats">): CountResult {
  return count({ ...input, seats: 1 }, "instant-runoff");
}

function count(input: RankedCountInput, rule: "scottish-stv" | "instant-runoff"): CountResult {
  const { candidates, lotSeed } = input;
  const n = candidates.length;
  const seats = Math.max(1, Math.floor(input.seats));
  const all = parcels(candidates, input.ballots, input.weights);
  const ballots = all.reduce((sum, p) => sum + p.papers, 0);
  const quota = rule === "scottish-stv" ? (Math.floor(ballots / (seats + 1)) + 1) * UNIT : undefined;

  const state: State[] = candidates.map(() => "continuing");
  const votes = new Array<number>(n).fill(0);
  const piles: Parcel[][] = candidates.map(() => []);
  /** votes at the end of each stage, for tie-breaks by earlier stages */
  const history: number[][] = [];
  const rounds: CountRound[] = [];
  const elected: number[] = [];
  /** elected candidates whose surplus has not been transferred yet */
  const pending = new Set<number>();
  let nonTransferable = 0;
  let lost = 0;

  /** Moves a parcel to its next available preference (a continuing candidate) or sets it aside. */
  const place = (p: Parcel) => {
    while (p.at < p.prefs.length && state[p.prefs[p.at]] !== "continuing") p.at++;
    if (p.at < p.prefs.length) {
      const c = p.prefs[p.at];
      piles[c].push(p);
      votes[c] += p.value * p.papers;
    } else nonTransferable += p.value * p.papers;
  };

  const record = (stage: CountRound["stage"]) => {
    history.push([...votes]);
    rounds.push({
      votes: Object.fromEntries(candidates.map((id, i) => [id, votes[i] / UNIT])),
      elected: [],
      excluded: [],
      nonTransferable: nonTransferable / UNIT,
      lostToRounding: lost / UNIT,
      stage,
      decisions: [],
    });
  };

  const decide = (c: number, outcome: CountDecision["outcome"], reason: DecisionReason, tie?: { how: TieBreak; tied: number[] }) => {
    const round = rounds[rounds.length - 1];
    const decision: CountDecision = { candidateId: candidates[c], outcome, reason };
    if (tie) {
      decision.tieBreak = tie.how;
      decision.tiedWith = tie.tied.map((i) => candidates[i]);
    }
    round.decisions.push(decision);
    (outcome === "elected" ? round.elected : round.excluded).push(candidates[c]);
  };

  /**
   * Picks one of `tied` (equal now): the one with most (or fewest) votes at the most recent
   * preceding stage where they differed, narrowing stage by stage; if equal at every stage, by lot.
   */
  const breakTie = (tied: number[], want: "most" | "fewest"): { chosen: number; how?: TieBreak } => {
    if (tied.length === 1) return { chosen: tied[0] };
    let set = tied;
    for (let s = history.length - 1; s >= 0 && set.length > 1; s--) {
      const figures = set.map((c) => history[s][c]);
      const target = want === "most" ? Math.max(...figures) : Math.min(...figures);
      set = set.filter((c) => history[s][c] === target);
    }
    if (set.length === 1) return { chosen: set[0], how: "earlier-stage" };
    const drawn = drawLot(set.map((c) => candidates[c]), lotSeed, rounds.length);
    return { chosen: candidates.indexOf(drawn), how: "lot" };
  };

  const continuing = () => state.flatMap((s, i) => (s === "continuing" ? [i] : []));

  const elect = (c: number, reason: DecisionReason, tie?: { how: TieBreak; tied: number[] }) => {
    state[c] = "elected";
    elected.push(c);
    decide(c, "elected", reason, tie);
  };

  /** Elects everyone over the threshold, most votes first (equal votes ordered by the tie rules). */
  const electReached = () => {
    const threshold =
      quota ?? Math.floor(continuing().reduce((sum, c) => sum + votes[c], 0) / 2) + 1;
    let reached = continuing().filter((c) => votes[c] >= threshold);
    while (reached.length > 0 && elected.length < seats) {
      const top = Math.max(...reached.map((c) => votes[c]));
      const tied = reached.filter((c) => votes[c] === top);
      const { chosen, how } = breakTie(tied, "most");
      elect(chosen, rule === "scottish-stv" ? "quota" : "majority", how ? { how, tied } : undefined);
      if (quota !== undefined && votes[chosen] > quota) pending.add(chosen);
      reached = reached.filter((c) => c !== chosen);
    }
  };

  for (const p of all) place(p);
  record({ kind: "first" });

  // With no ballot there is nothing to count: electing by lot would not be an election.
  while (ballots > 0) {
    electReached();
    if (elected.length >= seats) break;
    const left = continuing();
    if (left.length === 0) break;
    if (left.length <= seats - elected.length) {
      // Rule 52: no further transfer; the order of listing follows the votes.
      for (const c of [...left].sort((a, b) => votes[b] - votes[a] || a - b)) elect(c, "last-seats");
      break;
    }

    if (pending.size > 0) {
      const surplusOf = (c: number) => votes[c] - quota!;
      const biggest = Math.max(...[...pending].map(surplusOf));
      const tied = [...pending].filter((c) => surplusOf(c) === biggest);
      const { chosen, how } = breakTie(tied, "most");
      pending.delete(chosen);
      const surplus = surplusOf(chosen);
      const total = votes[chosen];
      const pile = piles[chosen];
      piles[chosen] = [];
      votes[chosen] = quota!;
      let moved = 0;
      for (const p of pile) {
        p.value = Math.floor((surplus * p.value) / total);
        moved += p.value * p.papers;
        p.at++;
        place(p);
      }
      lost += surplus - moved;
      record({ kind: "surplus", from: candidates[chosen], ...(how ? { tieBreak: how, tiedWith: tied.map((c) => candidates[c]) } : {}) });
      continue;
    }

    const lowest = Math.min(...left.map((c) => votes[c]));
    const tied = left.filter((c) => votes[c] === lowest);
    const { chosen, how } = breakTie(tied, "fewest");
    state[chosen] = "excluded";
    const pile = piles[chosen];
    piles[chosen] = [];
    votes[chosen] = 0;
    for (const p of pile) {
      p.at++;
      place(p);
    }
    record({ kind: "exclusion", from: candidates[chosen], ...(how ? { tieBreak: how, tiedWith: tied.map((c) => candidates[c]) } : {}) });
    decide(chosen, "excluded", "lowest", how ? { how, tied } : undefined);
  }

  return {
    rule,
    seats,
    ballots,
    ...(quota !== undefined ? { quota: quota / UNIT } : {}),
    elected: elected.map((c) => candidates[c]),
    tied: [],
    rounds,
    lotSeed,
  };
}
