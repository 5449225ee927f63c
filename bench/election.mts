/**
 * `node --import tsx bench/election.mts` (issue 11; not part of `npm test`): what the election
 * settings and ballot rules add to the two reads every voter makes, in-process through
 * `app.request()` on a temp database: the ballot (`GET /api/vote/positions`, 20 positions of
 * 8 candidates, half limited to groups) with fixed and with random order, and results
 * (`GET /api/vote/results`) with 'live' and 'after-close' visibility (after the close, so
 * both answer tallies).
 */
import { loadavg } from "node:os";
import { createTestApp } from "../api/src/test/harness.ts";
import { Latencies, ms, table } from "./lib/stats.ts";

const ROUNDS = 500;
const t = await createTestApp();
const admin = await t.adminToken();
const names = ["A", "B", "C", "D", "E", "F", "G", "H"];
for (let i = 0; i < 20; i++) {
  const { position } = await t.openElection(admin, names, `Post ${i}`);
  if (i % 2) await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { eligibleGroups: ["300L"] } });
}
const voter = await t.createVoter(admin);
const settings = (await (await t.request("/election", { token: admin })).json()) as Record<string, string>;

async function measure(kind: string, path: string, change: Record<string, string>) {
  const put = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, ...change } });
  if (put.status !== 200) throw new Error(`settings: ${put.status}`);
  const lat = new Latencies();
  for (let i = 0; i < ROUNDS + 50; i++) {
    const started = performance.now();
    const res = await t.request(path, { token: voter.token });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    if (i >= 50) lat.add(kind, performance.now() - started);
  }
  return lat.summary()[0];
}

const rows = [
  await measure("ballot, fixed order", "/vote/positions", { ballotOrder: "fixed" }),
  await measure("ballot, random order", "/vote/positions", { ballotOrder: "random" }),
  await measure("results, live", "/vote/results", { resultsVisibility: "live" }),
  await measure("results, after-close (closed)", "/vote/results", { resultsVisibility: "after-close" }),
];
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; ${ROUNDS} requests each after 50 warm-up`);
console.log(table(rows.map((r) => ({ read: r.kind, p50: ms(r.p50), p99: ms(r.p99) }))));
await t.close();
