/**
 * `npm run bench -- --only=count`: the ranked count of a closed position, 20,000 ballots over
 * 12 candidates (issue target: under a second on this machine). The ballots are made from a
 * fixed seed with a few popular candidates, so the count has surpluses to transfer, exclusions
 * and partial rankings, as a real one would. Reports the first (cold) run and the median of the
 * next ones, for Scottish STV with 3 seats and instant-runoff.
 */
import { countInstantRunoff, countStv } from "../shared/src/counting/index.ts";
import { percentile } from "./lib/stats.ts";

/** mulberry32: a small seeded generator, so every run counts the same election. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function rankedElection(ballotCount: number, candidateCount: number, seed = 37) {
  const next = random(seed);
  const candidates = Array.from({ length: candidateCount }, (_, i) => `candidate-${String(i + 1).padStart(2, "0")}`);
  // Popularity falls off so the first few gather surpluses and the tail is excluded one by one.
  const weight = candidates.map((_, i) => 1 / (i + 1));
  const ballots: string[][] = [];
  for (let b = 0; b < ballotCount; b++) {
    const pool = candidates.map((id, i) => ({ id, key: Math.pow(next(), 1 / weight[i]) }));
    pool.sort((x, y) => y.key - x.key);
    const length = 1 + Math.floor(next() * candidateCount);
    ballots.push(pool.slice(0, length).map((p) => p.id));
  }
  return { candidates, ballots };
}

export interface CountBench {
  stvFirstMs: number;
  stvMedianMs: number;
  irvMedianMs: number;
  rounds: number;
}

export function benchCount(ballotCount = 20_000, candidateCount = 12, runs = 15, seats = 3): CountBench {
  const { candidates, ballots } = rankedElection(ballotCount, candidateCount);
  const time = (f: () => unknown) => {
    const t0 = performance.now();
    f();
    return performance.now() - t0;
  };
  const stv = () => countStv({ candidates, seats, ballots, lotSeed: "bench" });
  const irv = () => countInstantRunoff({ candidates, ballots, lotSeed: "bench" });
  const stvFirstMs = time(stv);
  const stvRuns = Array.from({ length: runs }, () => time(stv)).sort((a, b) => a - b);
  const irvRuns = Array.from({ length: runs }, () => time(irv)).sort((a, b) => a - b);
  const result = stv();
  const out = {
    stvFirstMs,
    stvMedianMs: percentile(stvRuns, 50),
    irvMedianMs: percentile(irvRuns, 50),
    rounds: result.rounds.length,
  };
  console.log(
    `count    ${ballotCount.toLocaleString("en-US")} ranked ballots, ${candidateCount} candidates: Scottish STV (${seats} seats, ${out.rounds} stages) first run ${out.stvFirstMs.toFixed(1)} ms, median of ${runs} ${out.stvMedianMs.toFixed(1)} ms; instant-runoff median ${out.irvMedianMs.toFixed(1)} ms`,
  );
  return out;
}
