/**
 * Where the server's CPU went, from a V8 .cpuprofile (`--cpu-prof=DIR` on `npm run bench` or
 * `bench:rush`): each sample goes to the innermost frame of our own code (api/src) that names
 * a part of the request (auth, validation, sealing, SQL…); samples with none are classified by
 * their leaf (the HTTP stack, GC). Idle time is left out, so the shares are of busy time.
 *
 *   node --import tsx bench/profile-breakdown.ts DIR/CPU.*.cpuprofile
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const PARTS: [RegExp, string][] = [
  [/^(commitOne|commitTogether|execute|flush|submit|run)? .*db\/(direct|writer|writer-thread)\.ts/, "SQL write (group commit)"],
  [/findSession|http\/auth\.ts|services\/sessions\.ts/, "auth (session lookup)"],
  [/findBallotChoice|catalog\.ts|ballot-rules\.ts|eligib/, "ballot checks (position, candidate, eligibility reads)"],
  [/services\/results\.ts/, "results"],
  [/http\/validate\.ts|zod/, "validation (zod)"],
  [/security\/(keys|padded-seal)\.ts|receipt/, "sealing and HMAC"],
  [/services\/(votes|mixer|idempotency)\.ts/, "castVote (statements, ids)"],
  [/app\.ts|http\/api-middleware\.ts/, "middleware (app.ts, api-middleware.ts)"],
  [/http\/pipeline\.ts/, "pipeline (listener, fast path, body read, answer: http/pipeline.ts)"],
  [/routes\/vote\.ts/, "vote route"],
  [/realtime\/hub/, "realtime hub"],
];

function breakdown(file: string): void {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const parts = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const leaf = byId.get(p.samples[i])!.callFrame;
    if (leaf.functionName === "(idle)") continue;
    const dt = p.timeDeltas[i] ?? 0;
    busy += dt;
    let part: string | null = null;
    for (let id: number | undefined = p.samples[i]; id !== undefined && !part; id = parent.get(id)) {
      const cf = byId.get(id)!.callFrame;
      // A read helper belongs to whoever called it.
      if (/db\/(direct|client)\.ts/.test(cf.url) && /get|prepared/.test(cf.functionName)) continue;
      if (!/\/api\/src\/|zod/.test(cf.url)) continue;
      const name = `${cf.functionName} ${cf.url}`;
      part = PARTS.find(([re]) => re.test(name))?.[1] ?? null;
    }
    if (!part) {
      const where = `${leaf.url} ${leaf.functionName}`;
      if (leaf.functionName === "(garbage collector)") part = "GC";
      else if (/hono|undici|_http|webstreams|stream|net|node-server|abort|events|js_transferable|buffer|writev/.test(where)) part = "HTTP (node:http, @hono/node-server, web Request/Response, routing)";
      else if (/esm|modules|cjs-module-lexer|bootstrap/.test(where)) part = "module loading (start-up)";
      else part = "other";
    }
    parts.set(part, (parts.get(part) ?? 0) + dt);
  }
  console.log(`${file}: ${(busy / 1e6).toFixed(1)} s busy`);
  for (const [part, t] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`  ${((t / busy) * 100).toFixed(1).padStart(5)}%  ${part}`);
}

for (const file of process.argv.slice(2)) breakdown(file);
