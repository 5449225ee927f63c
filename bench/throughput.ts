/**
 * The throughput parts of `npm run bench`: the Hono hello-world ceiling, cast-vote
 * req/s and p99 at 50 connections, and results p99 with 500,000 ballots loaded. Every load
 * is driven by a load generator (bench/lib/lean-worker.ts, or autocannon with
 * `--loadgen=autocannon`) in a separate process against the real server in its own process.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCannon, type CannonResult } from "./lib/cannon.ts";
import { watchProc } from "./lib/proc.ts";
import { freePort, ROOT, startServer } from "./lib/server.ts";
import { seed, tempDir, tokenOf } from "./lib/seed.ts";
import { fmt, ms } from "./lib/stats.ts";

export interface ThroughputOptions {
  connections: number;
  durationS: number;
  synchronous: "FULL" | "NORMAL";
  /** Folder for a CPU profile of the server under the measured load (`--cpu-prof=DIR`). */
  cpuProfDir?: string;
  /** The load generator (bench/lib/cannon.ts). */
  loadgen: "lean" | "autocannon";
}

const profArgs = (o: ThroughputOptions) => (o.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${o.cpuProfDir}`] : []);

const line = (r: CannonResult) =>
  `${fmt(r.reqPerSec)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)}, ${fmt(r.total)} requests, non-2xx ${r.non2xx}, errors ${r.errors}; load generator ${r.cpuPct.toFixed(0)}% of a core`;

export async function benchCeiling(o: ThroughputOptions): Promise<CannonResult> {
  const scratch = tempDir("hello");
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "bench/lib/hello.ts", String(port)], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  try {
    await new Promise<void>((ok, fail) => {
      child.stdout!.on("data", (b: Buffer) => b.toString().includes("listening") && ok());
      child.once("exit", (code) => fail(new Error(`hello server exited ${code}`)));
    });
    await runCannon({ url: `http://127.0.0.1:${port}/`, connections: o.connections, durationS: 2, mode: "plain", loadgen: o.loadgen }, scratch.dir);
    const r = await runCannon({ url: `http://127.0.0.1:${port}/`, connections: o.connections, durationS: o.durationS, mode: "plain", loadgen: o.loadgen }, scratch.dir);
    console.log(`ceiling  Hono hello world, ${o.connections} connections: ${line(r)}`);
    return r;
  } finally {
    child.kill("SIGTERM");
    scratch.cleanup();
  }
}

/**
 * `storedVoters`: that many voters have already cast all 5 ballots before the run (the target:
 * the vote rate must stay flat with 500,000 ballots stored); the run's votes come from others.
 */
export async function benchVotes(o: ThroughputOptions, ceiling?: CannonResult, storedVoters = 0) {
  const scratch = tempDir("votes");
  try {
    // Enough distinct (voter, position) pairs that no request repeats within the run.
    const voters = 30_000;
    const t0 = performance.now();
    const seeded = await seed(scratch.dbPath, { voters: storedVoters + voters, sessions: true, ballotsForFirst: storedVoters });
    const stored = storedVoters ? ` and ${fmt(storedVoters * seeded.positions.length)} ballots already stored` : "";
    console.log(`votes    seeded ${fmt(voters)} voters with sessions${stored} in ${ms(performance.now() - t0)}`);
    const pairs: [string, string, string][] = [];
    for (let i = storedVoters + 1; i <= storedVoters + voters; i++) {
      for (const [p, pos] of seeded.positions.entries()) pairs.push([tokenOf(i), pos.id, pos.candidates[(i + p) % pos.candidates.length]]);
    }
    const warm = pairs.splice(0, 3_000);
    writeFileSync(join(scratch.dir, "warm.json"), JSON.stringify(warm));
    writeFileSync(join(scratch.dir, "votes.json"), JSON.stringify(pairs));

    const server = await startServer({ dbPath: scratch.dbPath, env: { DB_SYNCHRONOUS: o.synchronous }, nodeArgs: profArgs(o) });
    try {
      const url = `${server.url}/api/vote`;
      await runCannon({ url, connections: o.connections, durationS: 2, mode: "votes", loadgen: o.loadgen, votesFile: join(scratch.dir, "warm.json") }, scratch.dir);
      const watch = watchProc(server.pid);
      const r = await runCannon({ url, connections: o.connections, durationS: o.durationS, mode: "votes", loadgen: o.loadgen, votesFile: join(scratch.dir, "votes.json") }, scratch.dir);
      const cpu = watch.stop();
      const share = ceiling ? ` = ${((r.reqPerSec / ceiling.reqPerSec) * 100).toFixed(1)}% of the ceiling` : "";
      const label = storedVoters ? `, ${fmt(storedVoters * seeded.positions.length)} ballots stored` : "";
      console.log(`votes    cast-vote (synchronous=${o.synchronous}${label}), ${o.connections} connections: ${line(r)}${share}`);
      /** ms of CPU per vote at `pct` of a core over the run. */
      const msPerVote = (pct: number) => ((pct / 100) * r.durationS * 1000) / Math.max(1, r.total);
      console.log(`         statuses ${JSON.stringify(r.statuses)}; server CPU mean ${cpu.meanCpuPct.toFixed(0)}% of a core = ${msPerVote(cpu.meanCpuPct).toFixed(2)} ms CPU per vote, RSS peak ${cpu.peakRssMiB.toFixed(0)} MiB`);
      // Per thread: the event loop's share is what sets the rate.
      const us = (pct: number) => `${Math.round(msPerVote(pct) * 1000)} µs (${pct.toFixed(0)}% of a core)`;
      console.log(`         per vote: event loop ${us(cpu.mainThreadCpuPct)}, writer thread ${us(cpu.otherThreadCpuPct)}`);
      return r;
    } finally {
      await server.stop();
    }
  } finally {
    scratch.cleanup();
  }
}

export async function benchResults(o: ThroughputOptions) {
  const scratch = tempDir("results");
  try {
    const voters = 100_000; // x 5 positions = 500,000 ballots
    const t0 = performance.now();
    await seed(scratch.dbPath, { voters, sessions: true, ballotsForFirst: voters });
    console.log(`results  seeded ${fmt(voters * 5)} ballots (${fmt(voters)} voters x 5 positions) in ${ms(performance.now() - t0)}`);
    const server = await startServer({ dbPath: scratch.dbPath, env: { DB_SYNCHRONOUS: o.synchronous }, nodeArgs: profArgs(o) });
    try {
      const headers = { authorization: `Bearer ${tokenOf(1)}` };
      const url = `${server.url}/api/vote/results`;
      const first = performance.now();
      const res = await fetch(url, { headers });
      const body = (await res.json()) as { totalVotesCast: number; results: { totalVotes: number }[] };
      const cold = performance.now() - first;
      const total = body.results.reduce((n, p) => n + p.totalVotes, 0);
      console.log(`results  first (uncached) snapshot ${ms(cold)}: ${fmt(total)} ballots, ${fmt(body.totalVotesCast)} voters voted`);
      await runCannon({ url, connections: o.connections, durationS: 2, mode: "plain", headers, loadgen: o.loadgen }, scratch.dir);
      const out: CannonResult[] = [];
      for (const connections of [o.connections, 10]) {
        const r = await runCannon({ url, connections, durationS: o.durationS, mode: "plain", headers, loadgen: o.loadgen }, scratch.dir);
        console.log(`results  GET /api/vote/results, ${connections} connections: ${line(r)}`);
        out.push(r);
      }
      return out[0];
    } finally {
      await server.stop();
    }
  } finally {
    scratch.cleanup();
  }
}
