/**
 * The rush: N voters (default 10,000) sign in by date of birth and vote on all 5
 * positions against the real server, from separate load-generating processes.
 *
 *   node --import tsx bench/rush.ts [--voters=10000] [--rate=40] [--max-inflight=400]
 *                                   [--workers=1] [--deadline=600] [--sync=FULL] [--cpu-prof=DIR] [--addresses=N]
 *
 * --rate is voters arriving per second (0: as fast as the server admits them, bounded by
 * --max-inflight). Prints voters completed per second, p50/p95/p99 per call type (each try,
 * and as felt including Retry-After waits), retries (503/429 honoured), errors, and the
 * server's CPU and memory from /proc.
 */
import { execFile } from "node:child_process";
import { loadavg } from "node:os";
import { promisify } from "node:util";
import { intArg, parseArgs } from "./lib/args.ts";
import { watchProc } from "./lib/proc.ts";
import { ROOT, startServer } from "./lib/server.ts";
import { seed, tempDir } from "./lib/seed.ts";
import { fmt, Latencies, ms, table } from "./lib/stats.ts";

const args = parseArgs();
const voters = intArg(args, "voters", 10_000);
const ratePerS = intArg(args, "rate", 40);
const maxInflight = intArg(args, "max-inflight", 400);
const workers = Math.max(1, intArg(args, "workers", 1));
const deadlineS = Math.min(1800, intArg(args, "deadline", 600));
// Voters spread over this many devices' addresses (X-Forwarded-For behind a trusted proxy, as a
// campus deployment sees them). 1 is a campus behind one NAT address, the worst case for the
// per-address sign-in limits; 0 sends everything from the loopback without a proxy header.
const addresses = intArg(args, "addresses", 0);
const sync = (args.get("sync") ?? "FULL").toUpperCase();

interface WorkerOut {
  completed: number;
  failed: number;
  notStarted: number;
  peakInflight: number;
  elapsedMs: number;
  lastFinishMs: number;
  lat: Record<string, number[]>;
  felt: Record<string, number[]>;
  retries: Record<string, number>;
  errors: Record<string, number>;
  errorSamples: string[];
  slow: [string, number, number][];
}

const scratch = tempDir("rush");
try {
  console.log(`rush: ${fmt(voters)} voters, arrival ${ratePerS || "unlimited"}/s, ≤ ${maxInflight} in flight, ${addresses || 1} client address(es), ${workers} load process(es), synchronous=${sync}, load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
  await seed(scratch.dbPath, { voters, positions: 5, candidatesPerPosition: 3 });
  const profDir = args.get("cpu-prof");
  const server = await startServer({ dbPath: scratch.dbPath, env: { DB_SYNCHRONOUS: sync, ...(addresses > 0 ? { TRUST_PROXY: "1" } : {}) }, nodeArgs: profDir ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [] });
  try {
    const watch = watchProc(server.pid, 1000);
    const t0 = performance.now();
    const share = Math.ceil(voters / workers);
    const clientCpu: number[] = [];
    const outs = await Promise.all(
      Array.from({ length: workers }, async (_, w) => {
        const from = w * share + 1;
        const to = Math.min(voters, from + share - 1);
        const cfg = { base: server.url, from, to, ratePerS: ratePerS / workers, maxInflight: Math.ceil(maxInflight / workers), deadlineMs: deadlineS * 1000, addresses };
        const run = promisify(execFile)(process.execPath, ["--import", "tsx", "bench/rush-worker.ts", JSON.stringify(cfg)], {
          cwd: ROOT,
          timeout: (deadlineS + 120) * 1000,
          maxBuffer: 512 * 1024 * 1024,
        });
        const clientWatch = watchProc(run.child.pid!, 1000);
        const { stdout } = await run;
        const cpu = clientWatch.stop();
        clientCpu.push(cpu.meanCpuPct);
        return JSON.parse(stdout.trim().split("\n").pop()!) as WorkerOut;
      }),
    );
    const wallS = (performance.now() - t0) / 1000;
    const proc = watch.stop();

    const lat = new Latencies();
    const felt = new Latencies();
    const retries: Record<string, number> = {};
    const errors: Record<string, number> = {};
    let completed = 0;
    let failed = 0;
    let notStarted = 0;
    for (const o of outs) {
      lat.merge(o.lat);
      felt.merge(o.felt);
      completed += o.completed;
      failed += o.failed;
      notStarted += o.notStarted;
      for (const [k, v] of Object.entries(o.retries)) retries[k] = (retries[k] ?? 0) + v;
      for (const [k, v] of Object.entries(o.errors)) errors[k] = (errors[k] ?? 0) + v;
    }
    const lastFinishS = Math.max(...outs.map((o) => o.lastFinishMs)) / 1000;
    const rows = (l: Latencies) => l.summary().map((s) => ({ call: s.kind, count: fmt(s.count), p50: ms(s.p50), p95: ms(s.p95), p99: ms(s.p99), max: ms(s.max) }));
    console.log(`\nvoters completed ${fmt(completed)} of ${fmt(voters)} in ${lastFinishS.toFixed(1)} s = ${(completed / lastFinishS).toFixed(1)} voters/s (wall ${wallS.toFixed(1)} s); failed ${failed}, not started ${notStarted}`);
    console.log(`\nper try:\n${table(rows(lat))}`);
    console.log(`\nas felt (incl. Retry-After waits):\n${table(rows(felt))}`);
    console.log(`\nretries (honoured 503/429): ${JSON.stringify(retries)}`);
    console.log(`errors: ${JSON.stringify(errors)}`);
    for (const o of outs) for (const s of o.errorSamples.slice(0, 5)) console.log(`  e.g. ${s}`);
    const slow = outs.flatMap((o) => o.slow);
    if (slow.length) console.log(`slow calls (> 2 s; kind@start+took, ms): ${slow.slice(0, 20).map(([k, a, d]) => `${k}@${a}+${d}`).join(" ")}`);
    console.log(`server: CPU mean ${proc.meanCpuPct.toFixed(0)}% of one core (peak ${proc.peakCpuPct.toFixed(0)}%), RSS peak ${proc.peakRssMiB.toFixed(0)} MiB, end ${proc.endRssMiB.toFixed(0)} MiB; load generator CPU ${clientCpu.map((c) => `${c.toFixed(0)}%`).join(" + ")}`);
    const worstP95 = Math.max(...felt.summary().map((s) => s.p95));
    const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
    const refusals = Object.entries(retries).filter(([k]) => k.endsWith(" 429")).reduce((a, [, v]) => a + v, 0);
    // An arrival schedule sets its own pace (5 min for 10,000 at 34/s); as fast as admitted, 2 min.
    const targetS = ratePerS > 0 ? 300 : 120;
    const met = completed === voters && lastFinishS < targetS && worstP95 < 1000 && errorCount === 0 && refusals === 0;
    console.log(`\nTarget (${fmt(voters)} voters < ${targetS} s, p95 < 1 s per call, no error, no 429): ${met ? "MET" : "MISSED"} — ${fmt(completed)} voters in ${lastFinishS.toFixed(1)} s, worst felt p95 ${ms(worstP95)}, ${errorCount} errors, ${refusals} refusals (429)`);
    console.log(`load average after: ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
  } finally {
    await server.stop();
  }
} finally {
  scratch.cleanup();
}
