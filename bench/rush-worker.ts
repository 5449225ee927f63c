/**
 * One load-generating process of the rush (bench/rush.ts starts one or more). Voters of
 * its share arrive at a steady rate (open loop, like a queue at the polling station), at
 * most `maxInflight` at once, and each runs the PWA's sequence. Prints one JSON line.
 */
import { matricOf, VOTER_DOB } from "./lib/seed.ts";
import { newTally, runVoter } from "./lib/voter.ts";

const { base, from, to, ratePerS, maxInflight, deadlineMs, addresses } = JSON.parse(process.argv[2]) as {
  base: string;
  /** Client addresses the voters are spread over (0: all from this process's own). */
  addresses: number;
  from: number;
  to: number;
  ratePerS: number;
  maxInflight: number;
  deadlineMs: number;
};

const tally = newTally();
let completed = 0;
let failed = 0;
let inflight = 0;
let peakInflight = 0;
const started = performance.now();
const stopAt = started + deadlineMs;
const finishTimes: number[] = [];

await new Promise<void>((done) => {
  let next = from;
  const pending = new Set<Promise<void>>();
  const launch = () => {
    while (next <= to && inflight < maxInflight && performance.now() < stopAt) {
      // Open loop: voter k may start at k / rate seconds (rate 0: as fast as allowed).
      if (ratePerS > 0 && performance.now() - started < ((next - from) / ratePerS) * 1000) break;
      const i = next++;
      inflight++;
      peakInflight = Math.max(peakInflight, inflight);
      const n = i % Math.max(1, addresses);
      const p = runVoter(base, matricOf(i), VOTER_DOB, tally, addresses > 0 ? `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` : undefined)
        .then((ok) => {
          if (ok) completed++;
          else failed++;
          finishTimes.push(performance.now() - started);
        })
        .finally(() => {
          inflight--;
          pending.delete(p);
          launch();
        });
      pending.add(p);
    }
    if ((next > to || performance.now() >= stopAt) && inflight === 0) {
      clearInterval(timer);
      done();
    }
  };
  const timer = setInterval(launch, 5);
  launch();
});

process.stdout.write(
  JSON.stringify({
    completed,
    failed,
    notStarted: to - from + 1 - completed - failed,
    peakInflight,
    elapsedMs: performance.now() - started,
    lastFinishMs: Math.max(0, ...finishTimes),
    lat: tally.lat.toJSON(),
    felt: tally.felt.toJSON(),
    retries: tally.retries,
    errors: tally.errors,
    errorSamples: tally.errorSamples,
    slow: tally.slow,
  }) + "\n",
);
