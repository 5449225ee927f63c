/**
 * SSE subscriber process for bench/sse.ts: opens N EventSource-like streams on the results
 * channel (loopback only), keeps per-subscriber counts, and reports when asked.
 *
 * Every broadcast frame is byte-identical for all subscribers, so frames are keyed by the
 * snapshot's ballot total and the worker records, per key, how many subscribers got it and
 * when the first and the last did. Parent → worker messages: {type: "finish"}.
 * Worker → parent: {type: "progress", connected, failed}, {type: "report", ...}.
 *
 * Started as: node --import tsx bench/sse-client.ts <url> <count> <streams per voter>
 *
 * A stream token opens one stream and one voter holds at most a few streams at once,
 * so each subscriber gets its own token, signed here with the bench server's key for voter
 * `floor(i / streams per voter) + 1` and bound to that voter's seeded session.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import { loadKeys, signToken } from "../api/src/security/keys.ts";
import { hashToken } from "../api/src/services/auth/sessions.ts";
import { tokenOf, voterIdOf } from "./lib/seed.ts";
import { BALLOT_KEY } from "./lib/server.ts";

const [url, countArg, perVoterArg] = process.argv.slice(2);
const COUNT = Number(countArg);
const PER_VOTER = Number(perVoterArg);
const keys = loadKeys({ secret: BALLOT_KEY });
const tokenFor = (i: number) => {
  const voter = Math.floor(i / PER_VOTER) + 1;
  const claims = { k: "stream", sub: voterIdOf(voter), s: hashToken(tokenOf(voter)), jti: randomBytes(16).toString("base64url") };
  return signToken(keys, { ...claims, exp: Date.now() + 30 * 60_000 });
};
/** Connects in flight at once: well under the server's listen backlog. */
const CONNECT_WINDOW = 200;
const send = (message: unknown) => process.send?.(message);

interface Sub {
  req: http.ClientRequest | null;
  buffer: string;
  total: number;
  snapshots: number;
  updates: number;
  firstUpdateAt: number;
  lastUpdateAt: number;
  open: boolean;
  closedEarly: boolean;
}

export interface FrameStat {
  total: number;
  count: number;
  first: number;
  last: number;
}

const subs: Sub[] = [];
const frames = new Map<number, FrameStat>();
/** data string → ballot total; identical frames are parsed once. */
const totals = new Map<string, number>();
let connected = 0;
let failed = 0;
let finishing = false;

function ballotTotal(data: string): number {
  let total = totals.get(data);
  if (total === undefined) {
    const snapshot = JSON.parse(data) as { results: { totalVotes: number }[] };
    total = snapshot.results.reduce((n, p) => n + p.totalVotes, 0);
    if (totals.size > 500) totals.clear();
    totals.set(data, total);
  }
  return total;
}

function onFrame(sub: Sub, block: string, now: number) {
  let event = "";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("event: ")) event = line.slice(7);
    else if (line.startsWith("data: ")) data = line.slice(6);
  }
  if (event !== "snapshot" && event !== "new-vote") return;
  const total = ballotTotal(data);
  if (event === "snapshot") sub.snapshots++;
  else {
    sub.updates++;
    if (!sub.firstUpdateAt) sub.firstUpdateAt = now;
    sub.lastUpdateAt = now;
  }
  sub.total = Math.max(sub.total, total);
  let stat = frames.get(total);
  if (!stat) frames.set(total, (stat = { total, count: 0, first: now, last: now }));
  stat.count++;
  stat.last = Math.max(stat.last, now);
}

function open(sub: Sub, token: string): Promise<void> {
  return new Promise((done) => {
    const req = http.get(`${url}/api/realtime?channel=ballot-updates&token=${encodeURIComponent(token)}`, { agent: false }, (res) => {
      if (res.statusCode !== 200) {
        failed++;
        res.resume();
        done();
        return;
      }
      sub.open = true;
      connected++;
      res.setEncoding("utf8");
      let settled = false;
      res.on("data", (chunk: string) => {
        const now = Date.now();
        sub.buffer += chunk;
        let cut: number;
        while ((cut = sub.buffer.indexOf("\n\n")) >= 0) {
          onFrame(sub, sub.buffer.slice(0, cut), now);
          sub.buffer = sub.buffer.slice(cut + 2);
        }
        if (!settled && sub.snapshots > 0) {
          settled = true;
          done();
        }
      });
      res.on("close", () => {
        if (sub.open && !finishing) sub.closedEarly = true;
        sub.open = false;
        if (!settled) {
          settled = true;
          done();
        }
      });
    });
    req.on("error", () => {
      if (!sub.open) {
        failed++;
        done();
      } else if (!finishing) sub.closedEarly = true;
      sub.open = false;
    });
    sub.req = req;
  });
}

async function connectAll() {
  let next = 0;
  const progress = setInterval(() => send({ type: "progress", connected, failed }), 500);
  const lane = async () => {
    while (next < COUNT) {
      const sub: Sub = { req: null, buffer: "", total: 0, snapshots: 0, updates: 0, firstUpdateAt: 0, lastUpdateAt: 0, open: false, closedEarly: false };
      subs.push(sub);
      await open(sub, tokenFor(next++));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONNECT_WINDOW, COUNT) }, lane));
  clearInterval(progress);
  send({ type: "progress", connected, failed, done: true });
}

process.on("message", (message: { type: string; committed?: number }) => {
  if (message.type !== "finish") return;
  finishing = true;
  const committed = message.committed ?? 0;
  const report = {
    behind: subs.filter((s) => !s.open || s.closedEarly || s.total < committed).length,
    type: "report",
    connected,
    failed,
    open: subs.filter((s) => s.open).length,
    closedEarly: subs.filter((s) => s.closedEarly).length,
    finalTotals: subs.map((s) => s.total),
    updates: subs.map((s) => s.updates),
    span: subs.map((s) => (s.updates > 1 ? s.lastUpdateAt - s.firstUpdateAt : 0)),
    frames: [...frames.values()],
  };
  for (const s of subs) s.req?.destroy();
  send(report);
  setTimeout(() => process.exit(0), 200).unref();
});

// Bounded: this process never outlives its parent or 10 minutes.
process.on("disconnect", () => process.exit(0));
setTimeout(() => process.exit(2), 600_000).unref();
await connectAll();
