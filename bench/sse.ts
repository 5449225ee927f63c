/**
 * SSE benchmark: the real server on a temp database, N results subscribers from a
 * second process, votes cast at a steady rate from this one, and the figures that matter:
 * server memory per stream, delay from a vote's commit to the LAST subscriber seeing a
 * snapshot that includes it, results events per subscriber per second, subscribers left behind.
 *
 *   node --import tsx bench/sse.ts [--subscribers=10000] [--rate=500] [--duration=20] [--positions=5]
 *   npm run bench -- --only=sse        (bench/index.ts calls runSseBench)
 *
 * Loopback only; every loop and process is bounded and stops by itself.
 *
 * How "includes it" is measured: a vote's 201 arrives only after its commit, so when the i-th
 * 201 (in order of arrival) is in, at least i ballots are committed; the vote counts as seen
 * once a broadcast snapshot's ballot total reaches i. Its delay runs from that 201 (within a
 * few ms of the commit on loopback) to the moment the last subscriber received that snapshot.
 */
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { intArg, parseArgs } from "./lib/args.ts";
import { sampleProc } from "./lib/proc.ts";
import { seed, tempDir, tokenOf } from "./lib/seed.ts";
import { ROOT, startServer } from "./lib/server.ts";
import { percentile } from "./lib/stats.ts";
import { HUB_DEFAULTS } from "../api/src/realtime/hub.ts";
import type { FrameStat } from "./sse-client.ts";

export interface SseBenchOptions {
  subscribers?: number;
  /** Votes per second. */
  rate?: number;
  durationS?: number;
  positions?: number;
  log?: (line: string) => void;
}

export interface SseBenchResult {
  subscribersRequested: number;
  subscribers: number;
  fdLimit: number;
  serverRssBaseMiB: number;
  serverRssWithStreamsMiB: number;
  kibPerStream: number;
  votesSent: number;
  votesCommitted: number;
  voteErrors: number;
  delayMs: { p50: number; p95: number; max: number; unseen: number };
  eventsPerSubscriberPerSecond: { mean: number; max: number; maxBetweenFirstAndLast: number };
  leftBehind: number;
  targets: { streams: boolean; p95: boolean; rate: boolean; noneBehind: boolean };
}

interface WorkerReport {
  /** Not open at the end, cut off early, or short of the final count (includes failed connects). */
  behind: number;
  connected: number;
  failed: number;
  open: number;
  closedEarly: number;
  finalTotals: number[];
  updates: number[];
  span: number[];
  frames: FrameStat[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The soft "Max open files" of this process (children inherit it). */
function openFileLimit(): number {
  try {
    const line = readFileSync("/proc/self/limits", "utf8").split("\n").find((l) => l.startsWith("Max open files"));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) ? soft : Infinity;
  } catch {
    return Infinity;
  }
}

export async function runSseBench(options: SseBenchOptions = {}): Promise<SseBenchResult> {
  const log = options.log ?? ((line: string) => console.log(`sse      ${line}`));
  const requested = options.subscribers ?? 10_000;
  const rate = options.rate ?? 500;
  const durationS = options.durationS ?? 20;
  const positions = options.positions ?? 5;
  const fdLimit = openFileLimit();
  // Each stream is one fd in the server and one in the subscriber process; keep headroom.
  const subscribers = Math.min(requested, Math.max(1, fdLimit - 500));
  if (subscribers < requested) {
    log(`open-file limit is ${fdLimit} (raise it with \`ulimit -n\`): opening ${subscribers} of ${requested} streams`);
  }
  // Server, subscribers and voters share this machine: say how busy it was.
  const load = () => loadavg()[0].toFixed(1);
  log(`${subscribers} subscribers, ${rate} votes/s for ${durationS} s; ${availableParallelism()} cores, load average ${load()} at start`);
  const totalVotes = rate * durationS;
  const voters = Math.ceil(totalVotes / positions);

  const scratch = tempDir("sse");
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  let worker: ReturnType<typeof fork> | null = null;
  try {
    // Each voter may hold HUB_DEFAULTS.maxStreamsPerUser streams: seed enough voters to hold them all.
    const holders = Math.ceil(subscribers / HUB_DEFAULTS.maxStreamsPerUser);
    const seeded = await seed(scratch.dbPath, { voters: Math.max(voters, holders), positions, candidatesPerPosition: 3, sessions: true, ballotBatch: 1 });
    server = await startServer({ dbPath: scratch.dbPath });
    const base = server.url;

    // Warm the server up (JIT, results cache, one stream) before the memory baseline.
    for (let i = 0; i < 20; i++) await (await fetch(`${base}/api/vote/results`, { headers: { authorization: `Bearer ${tokenOf(1)}` } })).arrayBuffer();
    const res = await fetch(`${base}/api/realtime/token`, { headers: { authorization: `Bearer ${tokenOf(1)}` } });
    if (res.status !== 200) throw new Error(`stream token: ${res.status}`);
    await sleep(1_000);
    const rssBase = sampleProc(server.pid)?.rssMiB ?? NaN;

    // The subscriber process signs one token per stream with the server's key, so they outlive
    // the connection phase (the API's own tokens last 60 s, checked at connect).
    const connectStart = performance.now();
    const w = fork(join(ROOT, "bench/sse-client.ts"), [base, String(subscribers), String(HUB_DEFAULTS.maxStreamsPerUser)], {
      cwd: ROOT,
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    worker = w;
    let report: WorkerReport | null = null;
    let connectedNow = 0;
    const connectedAll = new Promise<void>((ok, fail) => {
      w.on("message", (m: { type: string; connected?: number; failed?: number; done?: boolean } & Partial<WorkerReport>) => {
        if (m.type === "progress") {
          connectedNow = m.connected ?? 0;
          if (m.done) ok();
        } else if (m.type === "report") report = m as WorkerReport;
      });
      w.once("exit", (code) => fail(new Error(`subscriber process exited (${code})`)));
    });
    const connectDeadline = setTimeout(() => w.kill("SIGKILL"), 180_000);
    await connectedAll;
    clearTimeout(connectDeadline);
    log(`${connectedNow} of ${subscribers} streams open in ${((performance.now() - connectStart) / 1000).toFixed(1)} s`);
    await sleep(2_000);
    const rssStreams = sampleProc(server.pid)?.rssMiB ?? NaN;

    // Votes: `rate` per second for `durationS`, every (voter, position) pair distinct.
    const answered: number[] = [];
    let errors = 0;
    let inFlight = 0;
    let sent = 0;
    const MAX_IN_FLIGHT = 256;
    const castOne = async (k: number) => {
      const voter = (k % voters) + 1;
      const position = seeded.positions[Math.floor(k / voters) % positions];
      inFlight++;
      try {
        const r = await fetch(`${base}/api/vote`, {
          method: "POST",
          headers: { authorization: `Bearer ${tokenOf(voter)}`, "content-type": "application/json" },
          body: JSON.stringify({ positionId: position.id, candidateId: position.candidates[k % position.candidates.length] }),
        });
        const at = Date.now();
        await r.arrayBuffer();
        if (r.status === 201) answered.push(at);
        else errors++;
      } catch {
        errors++;
      } finally {
        inFlight--;
      }
    };
    const voteStart = performance.now();
    const voteStartWall = Date.now();
    const pendingVotes: Promise<void>[] = [];
    while (sent < totalVotes && performance.now() - voteStart < durationS * 1000 + 10_000) {
      const due = Math.min(totalVotes, Math.floor(((performance.now() - voteStart) * rate) / 1000));
      while (sent < due && inFlight < MAX_IN_FLIGHT) pendingVotes.push(castOne(sent++));
      await sleep(5);
    }
    await Promise.all(pendingVotes);
    const voteEndWall = Date.now();
    log(`${answered.length} votes committed of ${sent} sent in ${((performance.now() - voteStart) / 1000).toFixed(1)} s (${errors} errors)`);

    // Let the last coalesced broadcast reach everyone, then collect.
    await sleep(3_000);
    const reported = new Promise<void>((ok) => {
      const check = setInterval(() => {
        if (report) {
          clearInterval(check);
          ok();
        }
      }, 20);
      setTimeout(() => {
        clearInterval(check);
        ok();
      }, 15_000).unref();
    });
    w.send({ type: "finish", committed: answered.length });
    await reported;
    const r = report as WorkerReport | null;
    if (!r) throw new Error("the subscriber process sent no report");

    // Delay per vote: i-th 201 → first snapshot whose ballot total reaches i → its last arrival.
    answered.sort((a, b) => a - b);
    const frames = [...r.frames].sort((a, b) => a.total - b.total);
    const delays: number[] = [];
    let unseen = 0;
    let f = 0;
    for (let i = 1; i <= answered.length; i++) {
      while (f < frames.length && frames[f].total < i) f++;
      if (f === frames.length) {
        unseen++;
        continue;
      }
      delays.push(Math.max(0, frames[f].last - answered[i - 1]));
    }
    delays.sort((a, b) => a - b);

    const windowS = (voteEndWall - voteStartWall) / 1000 + 1;
    const perSub = r.updates.map((u) => u / windowS);
    const between = r.updates.map((u, i) => (u > 1 && r.span[i] > 0 ? (u - 1) / (r.span[i] / 1000) : 0));
    const committed = answered.length;
    const result: SseBenchResult = {
      subscribersRequested: requested,
      subscribers: r.connected,
      fdLimit,
      serverRssBaseMiB: Math.round(rssBase),
      serverRssWithStreamsMiB: Math.round(rssStreams),
      kibPerStream: Number((((rssStreams - rssBase) * 1024) / Math.max(1, r.connected)).toFixed(1)),
      votesSent: sent,
      votesCommitted: committed,
      voteErrors: errors,
      delayMs: { p50: percentile(delays, 50), p95: percentile(delays, 95), max: delays.at(-1) ?? NaN, unseen },
      eventsPerSubscriberPerSecond: {
        mean: Number((perSub.reduce((a, b) => a + b, 0) / Math.max(1, perSub.length)).toFixed(2)),
        max: Number(Math.max(0, ...perSub).toFixed(2)),
        maxBetweenFirstAndLast: Number(Math.max(0, ...between).toFixed(2)),
      },
      leftBehind: r.behind,
      targets: { streams: false, p95: false, rate: false, noneBehind: false },
    };
    result.targets = {
      streams: result.subscribers >= 10_000,
      p95: result.delayMs.p95 < 1_500,
      rate: result.eventsPerSubscriberPerSecond.maxBetweenFirstAndLast <= 1.05,
      noneBehind: result.leftBehind === 0 && unseen === 0,
    };

    log(`load average ${load()} at the end`);
    log(`server RSS ${result.serverRssBaseMiB} MiB → ${result.serverRssWithStreamsMiB} MiB with ${r.connected} streams: ${result.kibPerStream} KiB per stream`);
    log(`vote commit → last subscriber has it: p50 ${result.delayMs.p50} ms, p95 ${result.delayMs.p95} ms, max ${result.delayMs.max} ms (${unseen} never seen)`);
    log(
      `new-vote events per subscriber: ${result.eventsPerSubscriberPerSecond.mean}/s mean, ${result.eventsPerSubscriberPerSecond.max}/s max over the ${windowS.toFixed(1)} s window; ` +
        `${result.eventsPerSubscriberPerSecond.maxBetweenFirstAndLast}/s at most between a subscriber's first and last event`,
    );
    log(`subscribers left behind: ${result.leftBehind} (${r.closedEarly} cut off, ${r.failed} failed to connect, ${r.finalTotals.filter((t) => t < committed).length} short of the final count)`);
    const mark = (ok: boolean) => (ok ? "MET   " : "MISSED");
    log(`${mark(result.targets.streams)} 10,000 streams in one process (${result.subscribers})`);
    log(`${mark(result.targets.p95)} p95 delay < 1.5 s (${result.delayMs.p95} ms)`);
    log(`${mark(result.targets.rate)} ≤ 1 results event per second per subscriber`);
    log(`${mark(result.targets.noneBehind)} no subscriber left behind`);
    return result;
  } finally {
    worker?.kill("SIGKILL");
    await server?.stop();
    scratch.cleanup();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = parseArgs();
  await runSseBench({
    subscribers: intArg(args, "subscribers", 10_000),
    rate: intArg(args, "rate", 500),
    durationS: intArg(args, "duration", 20),
    positions: intArg(args, "positions", 5),
  });
}
