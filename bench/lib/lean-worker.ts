/**
 * A lean HTTP/1.1 load generator: the same configuration file and the same one-line JSON
 * result as cannon-worker.ts, run in its own process the same way.
 *
 * Why it exists: on this 2-core machine the load generator shares the CPU with the server it
 * measures. autocannon spends ~200 µs of CPU per vote request (a JavaScript HTTP parser, and
 * in votes mode every request is rebuilt and deep-cloned), about half a core at 2,500
 * votes/s, taken from the server under test. This one writes each request as one string on a
 * keep-alive socket (one request in flight per connection, as autocannon without
 * pipelining), reads the status line and Content-Length (or chunked framing) of the answer,
 * and records the time from the write to the answer's last byte. The result says how much
 * CPU the generator itself used (`cpuPct`), so a run shows what it took from the server.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import type { CannonConfig } from "./cannon-worker.ts";
import { percentile } from "./stats.ts";

const config = JSON.parse(readFileSync(process.argv[2], "utf8")) as CannonConfig;
const url = new URL(config.url);
const port = Number(url.port || 80);
const path = url.pathname + url.search;
const TIMEOUT_MS = 10_000;
const CRLF2 = Buffer.from("\r\n\r\n");

function head(method: string, headers: Record<string, string>, body: string): string {
  let h = `${method} ${path} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const [k, v] of Object.entries(headers)) h += `${k}: ${v}\r\n`;
  if (body || method !== "GET") h += `content-length: ${Buffer.byteLength(body)}\r\n`;
  return `${h}\r\n${body}`;
}

let nextRequest: () => string;
if (config.mode === "votes") {
  const votes = JSON.parse(readFileSync(config.votesFile!, "utf8")) as [string, string, string][];
  let next = 0;
  // Bounded by time only; a list that runs out wraps round and the repeats show up as 409s.
  nextRequest = () => {
    const v = votes[next++ % votes.length];
    const body = `{"positionId":${JSON.stringify(v[1])},"candidateId":${JSON.stringify(v[2])}}`;
    return head("POST", { "content-type": "application/json", authorization: `Bearer ${v[0]}`, "idempotency-key": randomUUID() }, body);
  };
} else {
  const fixed = head(config.method ?? "GET", config.headers ?? {}, config.body ?? "");
  nextRequest = () => fixed;
}

let latencies = new Float64Array(1 << 16);
let total = 0;
let errors = 0;
let timeouts = 0;
const statuses: Record<string, number> = {};
let stopping = false;

function record(status: number, ms: number) {
  if (total === latencies.length) {
    const bigger = new Float64Array(latencies.length * 2);
    bigger.set(latencies);
    latencies = bigger;
  }
  latencies[total++] = ms;
  statuses[status] = (statuses[status] ?? 0) + 1;
}

/**
 * Where a complete answer ends in `buf`, or -1 while more bytes are needed; throws on an
 * answer framed by closing the connection, which a keep-alive load cannot measure.
 */
function answerEnd(buf: Buffer): number {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd < 0) return -1;
  const headText = buf.toString("latin1", 0, headEnd);
  const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(headText);
  if (length) {
    const end = headEnd + 4 + Number(length[1]);
    return buf.length >= end ? end : -1;
  }
  if (!/\r\ntransfer-encoding:[^\r]*chunked/i.test(headText)) throw new Error(`answer with neither Content-Length nor chunked framing: ${headText.split("\r\n")[0]}`);
  let pos = headEnd + 4;
  for (;;) {
    const lineEnd = buf.indexOf("\r\n", pos);
    if (lineEnd < 0) return -1;
    const size = parseInt(buf.toString("latin1", pos, lineEnd), 16);
    if (size === 0) return buf.length >= lineEnd + 4 ? lineEnd + 4 : -1; // no trailers
    pos = lineEnd + 2 + size + 2;
    if (pos > buf.length) return -1;
  }
}

/** One connection with one request in flight at a time; reconnects after an error. */
function drive(done: () => void) {
  let socket: Socket;
  let pending: Buffer | null = null;
  let sentAt = 0;
  let inFlight = false;

  const send = () => {
    if (stopping) return finish();
    inFlight = true;
    sentAt = performance.now();
    socket.write(nextRequest());
  };
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    socket.destroy();
    done();
  };
  const open = () => {
    socket = connect({ host: url.hostname, port, noDelay: true });
    socket.setTimeout(TIMEOUT_MS);
    socket.on("connect", send);
    socket.on("data", (chunk: Buffer) => {
      pending = pending ? Buffer.concat([pending, chunk]) : chunk;
      let end: number;
      try {
        end = answerEnd(pending);
      } catch (e) {
        console.error(String(e));
        errors++;
        return finish();
      }
      if (end < 0) return;
      record(Number(pending.toString("latin1", 9, 12)), performance.now() - sentAt);
      pending = end < pending.length ? pending.subarray(end) : null;
      inFlight = false;
      send();
    });
    socket.on("timeout", () => {
      timeouts++;
      inFlight = false;
      socket.destroy();
    });
    socket.on("error", () => {
      errors++;
    });
    socket.on("close", () => {
      if (finished) return;
      if (inFlight) errors++;
      inFlight = false;
      pending = null;
      if (stopping) return finish();
      open();
    });
  };
  open();
}

const cpu0 = process.cpuUsage();
const t0 = performance.now();
let lastAt = t0;
await new Promise<void>((allDone) => {
  let left = config.connections;
  for (let i = 0; i < config.connections; i++)
    drive(() => {
      lastAt = performance.now();
      if (--left === 0) allDone();
    });
  setTimeout(() => (stopping = true), config.durationS * 1000);
});
const cpu = process.cpuUsage(cpu0);
const durationS = (lastAt - t0) / 1000;

const sorted = latencies.subarray(0, total).sort();
const non2xx = Object.entries(statuses).reduce((n, [s, c]) => (s.startsWith("2") ? n : n + c), 0);
process.stdout.write(
  JSON.stringify({
    reqPerSec: total / durationS,
    total,
    durationS,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: total ? sorted[total - 1] : NaN,
    non2xx,
    errors,
    timeouts,
    statuses,
    cpuPct: ((cpu.user + cpu.system) / 1000 / (lastAt - t0)) * 100,
  }) + "\n",
);
