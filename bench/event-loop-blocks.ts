/**
 * The longest synchronous spans of a thread, from a V8 .cpuprofile (`--cpu-prof=DIR` on
 * `npm run bench -- --only=count`): runs of consecutive samples that are not idle, i.e. the
 * times the event loop could answer nothing. A probe's slowest answer on a loaded machine
 * mixes the server's own blocks with the other processes' turns on the cores; the profile's
 * spans show which block is the server's and what ran in it. With the bench's
 * `phases-PID.json` beside the profile, each span is labelled with the phase it fell in.
 *
 *   node --import tsx bench/event-loop-blocks.ts DIR/CPU.*.0.001.cpuprofile [--top=10] [--min=20] [--phase=close]
 *
 * Spans are ranked by their samples (times the sampling interval: near enough the thread's CPU
 * time in the span), since the sampler samples a thread only while it runs: on a loaded machine
 * a span's wall time also holds the turns other processes took meanwhile, its samples do not.
 * Both are printed.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { intArg, parseArgs } from "./lib/args.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = parseArgs();
const file = process.argv.slice(2).find((a) => !a.startsWith("--"));
if (!file) throw new Error("usage: node --import tsx bench/event-loop-blocks.ts FILE.cpuprofile [--top=10] [--min=20]");
const top = intArg(args, "top", 10);
const minMs = intArg(args, "min", 20);
const onlyPhase = args.get("phase");

const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// The phases the bench wrote (same monotonic clock as the profile, in µs), if any.
const pid = /CPU\.\d+\.\d+\.(\d+)\./.exec(basename(file))?.[1];
const phaseFile = pid ? join(dirname(file), `phases-${pid}.json`) : "";
const phases = phaseFile && existsSync(phaseFile) ? (JSON.parse(readFileSync(phaseFile, "utf8")) as { phase: string; atUs: number }[]) : [];
const phaseOf = (us: number) => phases.filter((p) => p.atUs <= us).at(-1);
const phaseAt = (us: number) => phaseOf(us)?.phase ?? "-";
if (!phases.length && pid) {
  const others = readdirSync(dirname(file)).filter((f) => f.startsWith("phases-"));
  if (others.length) console.log(`(no phases-${pid}.json; found ${others.join(", ")})`);
}

const idle = (id: number) => byId.get(id)!.callFrame.functionName === "(idle)";
/** The innermost frame of the project's own code on a sample's stack, else its leaf. */
function ownFrame(id: number): string {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
    const m = /\/(api|shared)\/src\/(.*)$/.exec(url);
    if (m && !/node_modules/.test(url)) return `${functionName || "(anonymous)"} ${m[1]}/src/${m[2]}:${lineNumber + 1}`;
  }
  const { functionName, url } = byId.get(id)!.callFrame;
  return `${functionName || "(anonymous)"} ${url.replace(/^.*node_modules\//, "")}`;
}

/** The sampling interval: the median gap between samples (--cpu-prof-interval, 1 ms by default). */
const intervalMs = [...profile.timeDeltas].sort((a, b) => a - b)[profile.timeDeltas.length >> 1] / 1000;

interface Span {
  startUs: number;
  endUs: number;
  samples: number[];
}
const spans: Span[] = [];
let t = profile.startTime;
let open: Span | null = null;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  const id = profile.samples[i];
  if (idle(id)) {
    if (open) spans.push(open);
    open = null;
  } else {
    open ??= { startUs: t, endUs: t, samples: [] };
    open.endUs = t;
    open.samples.push(id);
  }
}
if (open) spans.push(open);

const lengthMs = (s: Span) => (s.endUs - s.startUs) / 1000;
/** A span's CPU time, near enough: the sampler takes one sample per interval only while the thread runs (and never more than the wall time). */
const cpuMs = (s: Span) => Math.min(s.samples.length * intervalMs, Math.max(lengthMs(s), intervalMs));
const longest = spans.filter((s) => cpuMs(s) >= minMs && (!onlyPhase || phaseAt(s.startUs) === onlyPhase)).sort((a, b) => cpuMs(b) - cpuMs(a));
const perPhase = new Map<string, { wall: number; cpu: number }>();
for (const s of spans) {
  const held = perPhase.get(phaseAt(s.startUs)) ?? { wall: 0, cpu: 0 };
  perPhase.set(phaseAt(s.startUs), { wall: Math.max(held.wall, lengthMs(s)), cpu: Math.max(held.cpu, cpuMs(s)) });
}
console.log(`${basename(file)}: ${spans.length} busy spans, sampled every ${intervalMs.toFixed(2)} ms`);
console.log(`  the longest span by phase, on the CPU (samples x interval) and in wall time: ${[...perPhase].map(([p, m]) => `${p} ${m.cpu.toFixed(0)} ms (wall ${m.wall.toFixed(0)} ms)`).join(", ")}`);
for (const s of longest.slice(0, top)) {
  const counts = new Map<string, number>();
  for (const id of s.samples) counts.set(ownFrame(id), (counts.get(ownFrame(id)) ?? 0) + 1);
  const frames = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 6);
  const began = phaseOf(s.startUs);
  const since = began ? ` (${began.phase} +${((s.startUs - began.atUs) / 1e6).toFixed(2)} s)` : "";
  console.log(`  ${cpuMs(s).toFixed(0)} ms on the CPU (${s.samples.length} samples), ${lengthMs(s).toFixed(1)} ms wall${since}`);
  for (const [frame, n] of frames) console.log(`      ${String(n).padStart(5)}  ${frame}`);
}
