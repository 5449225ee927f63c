/**
 * Runs autocannon in its own process (never in the server's), configured by a JSON file
 * named on the command line, and prints the result as one JSON line. Modes:
 *  - plain: one request repeated (hello world, results);
 *  - votes: each request casts a distinct (voter, position) ballot from a prepared list, so
 *    every request is a real insert while the list lasts (size it for the duration).
 */
import autocannon from "autocannon";
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";

export interface CannonConfig {
  url: string;
  connections: number;
  durationS: number;
  mode: "plain" | "votes";
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** votes mode: [token, positionId, candidateId] triples */
  votesFile?: string;
  /** Which generator runs the load (bench/lib/cannon.ts); lean unless told. */
  loadgen?: "lean" | "autocannon";
}

const config = JSON.parse(readFileSync(process.argv[2], "utf8")) as CannonConfig;

const opts: autocannon.Options = {
  url: config.url,
  connections: config.connections,
  duration: config.durationS,
  timeout: 10,
};

if (config.mode === "votes") {
  const votes = JSON.parse(readFileSync(config.votesFile!, "utf8")) as [string, string, string][];
  let next = 0;
  // Bounded by time only; a list that runs out wraps round and the repeats show up as 409s.
  opts.requests = [
    {
      method: "POST",
      setupRequest: (req) => {
        const v = votes[next++ % votes.length];
        return {
          ...req,
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${v[0]}`,
            "idempotency-key": randomUUID(),
          },
          body: JSON.stringify({ positionId: v[1], candidateId: v[2] }),
        };
      },
    },
  ];
} else {
  opts.method = config.method ?? "GET";
  opts.headers = config.headers;
  opts.body = config.body;
}

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const result = await autocannon(opts);
const cpu = process.cpuUsage(cpu0);
const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, (v as { count: number }).count]));
process.stdout.write(
  JSON.stringify({
    reqPerSec: result.requests.average,
    total: result.requests.total,
    durationS: result.duration,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    cpuPct: ((cpu.user + cpu.system) / 1000 / (performance.now() - t0)) * 100,
  }) + "\n",
);
