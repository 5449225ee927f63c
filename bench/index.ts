/**
 * `npm run bench` (not part of `npm test`).
 *   npm run bench                       every part
 *   npm run bench -- --only=votes,results --duration=10 --connections=50 --sync=FULL
 *   npm run bench -- --loadgen=autocannon   the same load from autocannon (the default is
 *                                           bench/lib/lean-worker.ts, which takes less CPU
 *                                           from the server on a small machine)
 * Parts: ceiling, votes, votes-stored (votes with 500,000 ballots already stored), votes-verifiable
 * (ordinary votes while verifiable ballots are being checked: bench/votes-verifiable.ts), results,
 * bundle, sse, pages (50 phones open the built app at once: bench/pages.ts), count (the ranked count of 20,000
 * ballots: bench/count.ts in-process, then bench/count-server.ts on a real server: no request waits on it),
 * belenios (verifiable positions: the ballot build, the server's verifier rate, the credential
 * upload and the 10,000-ballot archive: bench/belenios.ts, as `npm run bench:belenios` prints them;
 * then the archive served by the real server: bench/belenios-archive.ts),
 * ballot-phone (the PWA's ballot worker builds a verifiable ballot in Debian's Chromium at 1x and at
 * a 4x CPU slowdown: bench/ballot-phone.ts, `--runs=N`, builds the PWA if needed). Each other part
 * starts its own server on a temp database and drives it from a separate process (loopback only).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { intArg, parseArgs } from "./lib/args.ts";
import { ROOT } from "./lib/server.ts";
import { benchCeiling, benchResults, benchVotes, type ThroughputOptions } from "./throughput.ts";
import { benchPages } from "./pages.ts";
import { benchCount } from "./count.ts";
import { benchCountServer } from "./count-server.ts";
import { benchVotesWithVerifiable } from "./votes-verifiable.ts";
import { benchBelenios } from "./belenios.ts";
import { servedArchive } from "./belenios-archive.ts";
import { benchBallotPhone, phoneVerdict } from "./ballot-phone.ts";
import type { CannonResult } from "./lib/cannon.ts";
import { fmt } from "./lib/stats.ts";

const args = parseArgs();
const ALL = ["ceiling", "votes", "votes-stored", "votes-verifiable", "results", "bundle", "sse", "pages", "count", "belenios", "ballot-phone"];
const only = new Set((args.get("only") ?? ALL.join(",")).split(",").map((s) => s.trim()).filter(Boolean));
for (const part of only) if (!ALL.includes(part)) throw new Error(`unknown part '${part}'; parts are ${ALL.join(", ")}`);

const sync = (args.get("sync") ?? "FULL").toUpperCase();
if (sync !== "FULL" && sync !== "NORMAL") throw new Error("--sync must be FULL or NORMAL");
const loadgen = args.get("loadgen") ?? "lean";
if (loadgen !== "lean" && loadgen !== "autocannon") throw new Error("--loadgen must be lean or autocannon");
const opts: ThroughputOptions = {
  loadgen,
  connections: intArg(args, "connections", 50),
  durationS: Math.min(60, intArg(args, "duration", 10)),
  synchronous: sync,
  cpuProfDir: args.get("cpu-prof"),
};

console.log(`CSC E-Voting bench: ${[...only].join(", ")}; ${opts.connections} connections, ${opts.durationS} s per run, load generator ${opts.loadgen}, node ${process.version}, load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
const verdicts: string[] = [];
const check = (ok: boolean, text: string) => verdicts.push(`${ok ? "MET " : "MISSED"}  ${text}`);

let ceiling: CannonResult | undefined;
if (only.has("ceiling") || only.has("votes") || only.has("votes-stored")) ceiling = await benchCeiling(opts);
let empty: CannonResult | undefined;
for (const [part, storedVoters] of [["votes", 0], ["votes-stored", 100_000]] as const) {
  if (!only.has(part)) continue;
  const v = await benchVotes(opts, ceiling, storedVoters);
  const what = storedVoters ? `cast-vote with ${fmt(storedVoters * 5)} ballots stored` : "cast-vote";
  const share = ceiling ? v.reqPerSec / ceiling.reqPerSec : NaN;
  check(v.reqPerSec >= 3_500, `${what} ≥ 3,500 votes/s (issue 13): ${Math.round(v.reqPerSec)} votes/s = ${(share * 100).toFixed(1)}% of ${Math.round(ceiling!.reqPerSec)} req/s`);
  check(v.p99 < 30, `${what} p99 < 30 ms (issue 13): ${v.p99} ms`);
  check(share >= 0.25, `${what} ≥ 25% of the ceiling (issue 2): ${(share * 100).toFixed(1)}%`);
  check(v.p99 < 50, `${what} p99 < 50 ms (issue 2): ${v.p99} ms`);
  check(v.non2xx === 0 && v.errors === 0, `${what} without errors: non-2xx ${v.non2xx}, errors ${v.errors}`);
  if (storedVoters && empty) {
    const ratio = v.reqPerSec / empty.reqPerSec;
    check(ratio >= 0.9, `${what} stays flat (within 10% of the empty database's rate, same machine minutes): ${(ratio * 100).toFixed(0)}%`);
  } else empty = v;
}
if (only.has("votes-verifiable")) {
  const v = await benchVotesWithVerifiable(opts);
  const worst = Math.max(...v.withStream.map((r) => r.p99));
  const errors = v.withStream.reduce((n, r) => n + r.non2xx + r.errors, 0);
  check(
    worst < 100 && errors === 0 && v.ballotsPerSec.every((r) => r > 0),
    `ordinary cast-vote p99 < 100 ms at ${opts.connections} connections while verifiable ballots are checked (issue 48): ${v.withStream.map((r) => r.p99.toFixed(1)).join(", ")} ms (alone ${v.alone.map((r) => r.p99.toFixed(1)).join(", ")} ms), verifiable ${v.ballotsPerSec.map((r) => r.toFixed(1)).join(", ")} ballots/s, non-2xx and errors ${errors}`,
  );
}
if (only.has("results")) {
  const r = await benchResults(opts);
  check(r.p99 < 10, `results p99 < 10 ms with 500,000 ballots at ${opts.connections} connections: ${r.p99} ms`);
}
if (only.has("bundle")) {
  const script = join(ROOT, "pwa/scripts/bundle-size.mjs");
  if (existsSync(script)) {
    console.log("bundle   " + execFileSync(process.execPath, [script], { cwd: ROOT, encoding: "utf8" }).trim().replace(/\n/g, "\n         "));
  } else console.log("bundle   skipped: pwa/scripts/bundle-size.mjs does not exist yet");
}
if (only.has("sse")) {
  const file = join(ROOT, "bench/sse.ts");
  if (existsSync(file)) {
    const mod = (await import(file)) as { runSseBench?: (o: Record<string, unknown>) => Promise<{ targets?: Record<string, boolean> } | undefined> };
    if (typeof mod.runSseBench === "function") {
      const out = await mod.runSseBench({}); // prints its own figures
      for (const [name, ok] of Object.entries(out?.targets ?? {})) check(ok, `sse ${name} (see the sse lines above)`);
    } else console.log("sse      skipped: bench/sse.ts exports no runSseBench");
  } else console.log("sse      skipped: bench/sse.ts does not exist yet");
}
if (only.has("pages")) await benchPages({ phones: opts.connections });
if (only.has("count")) {
  const c = benchCount();
  check(c.stvFirstMs < 1000 && c.stvMedianMs < 1000, `ranked count of 20,000 ballots, 12 candidates < 1 s: first ${c.stvFirstMs.toFixed(1)} ms, median ${c.stvMedianMs.toFixed(1)} ms`);
  const wide = benchCount(20_000, 64, 5, 20);
  console.log(`count    (the same count in-process: 64 candidates, 20 seats, ${wide.rounds} stages, median ${wide.stvMedianMs.toFixed(1)} ms: what the count thread spends)`);
  const s = await benchCountServer(undefined, undefined, undefined, undefined, opts.cpuProfDir);
  const waited = Math.max(s.recountMaxMs, s.bltMaxMs);
  check(waited <= 50, `no request waits more than 50 ms on a ranked count or a BLT export (20,000 ballots, 64 candidates): slowest /api/health ${s.recountMaxMs.toFixed(1)} ms while recounting, ${s.bltMaxMs.toFixed(1)} ms while exporting (${s.quietMaxMs.toFixed(1)} ms with nothing counted)`);
}
if (only.has("belenios")) {
  const b = await benchBelenios();
  check(
    b.twoThreads >= 100,
    `the server's verifier checks ≥ 100 verifiable ballots/s off the event loop on this 2-core machine (issue 48): ${b.twoThreads.toFixed(0)} ballots/s in its two verifier threads (${b.oneThread.toFixed(0)}/s in one; ${b.cpuMs.toFixed(1)} ms of CPU a check, ${(1000 / b.cpuMs).toFixed(0)}/s per core)`,
  );
  const a = await servedArchive();
  const served = [...a.ms].sort((x, y) => x - y)[a.ms.length >> 1]!;
  check(
    served < 1000,
    `a 10,000-ballot archive served < 1 s (issue 48): GET archive.bel from the real server, request to last byte, median ${served.toFixed(0)} ms (${a.ms.map((t) => t.toFixed(0)).join(", ")}; ${(a.bytes / 1e6).toFixed(1)} MB); written from its records in memory alone ${b.archiveMs.toFixed(0)} ms; /api/health waited up to ${a.healthMaxMs.toFixed(0)} ms meanwhile`,
  );
}
if (only.has("ballot-phone")) {
  const p = await benchBallotPhone({ runs: intArg(args, "runs", 8), blank: args.has("blank") });
  check(p.met, phoneVerdict(p));
}
if (verdicts.length) console.log(`\nTargets:\n  ${verdicts.join("\n  ")}`);
