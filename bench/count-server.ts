/**
 * `npm run bench -- --only=count`, the server half: a real server (bench/lib/server.ts) with a
 * ranked position of 64 candidates and 20 seats, the live count on, and 20,000 ranked ballots
 * cast through POST /vote. Then, while a probe asks GET /api/health every 10 ms, the results are
 * recounted after each of a few more votes and, once the position has closed, its BLT file is
 * exported: the probe's slowest answer in those phases is how long any request waited on a
 * count or an export. The close itself is a phase of its own: what the server does when a
 * position closes (the integrity check's look among it) is not the count's.
 * Also prints the database's growth per ranked ballot (the file after the server stopped).
 */
import { statSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rankedElection } from "./count.ts";
import { seed, tempDir, tokenOf } from "./lib/seed.ts";
import { ADMIN_MATRIC, ADMIN_PASSWORD, startServer } from "./lib/server.ts";
import { percentile } from "./lib/stats.ts";

export interface CountServerBench {
  ballots: number;
  /** the slowest probe answer while the results were recounted, and while the BLT was exported */
  recountMaxMs: number;
  bltMaxMs: number;
  /** the same probe with nothing counted, as long: what the machine's own load makes a request wait */
  quietMaxMs: number;
  quietP99Ms: number;
  probeMaxMs: number;
  probeP99Ms: number;
  countMs: number[];
  bltMs: number[];
  bytesPerBallot: number;
}

const fileBytes = (path: string) => [path, `${path}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchCountServer(ballotCount = 20_000, candidateCount = 64, seats = 20, connections = 32, cpuProfDir?: string): Promise<CountServerBench> {
  const { dbPath, cleanup } = tempDir("count");
  const extra = 5;
  try {
    // A batch of 1: each vote reaches the tallies (and a new results version) as it is cast.
    await seed(dbPath, { voters: ballotCount + extra, positions: 0, sessions: true, ballotBatch: 1 });
    const seeded = fileBytes(dbPath);
    const server = await startServer({ dbPath, env: { VOTE_GRACE_MINUTES: "0" }, nodeArgs: cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [] });
    try {
      const api = (path: string, init: { method?: string; token?: string; json?: unknown; form?: FormData } = {}) =>
        fetch(`${server.url}/api${path}`, {
          method: init.method ?? "GET",
          headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.json ? { "content-type": "application/json" } : {}) },
          body: init.json ? JSON.stringify(init.json) : init.form,
        });
      const login = await api("/auth/login", { method: "POST", json: { matricNumber: ADMIN_MATRIC, password: ADMIN_PASSWORD } });
      const admin = ((await login.json()) as { token: string }).token;
      const now = Date.now();
      const created = await api("/admin/positions", {
        method: "POST",
        token: admin,
        json: { title: "Council", method: "ranked", seats, liveCount: true, startTime: new Date(now - 3_600_000).toISOString(), endTime: new Date(now + 6 * 3_600_000).toISOString() },
      });
      if (created.status !== 201) throw new Error(`position: ${created.status} ${await created.text()}`);
      const positionId = ((await created.json()) as { _id: string })._id;
      const ids: string[] = [];
      for (let k = 0; k < candidateCount; k++) {
        const form = new FormData();
        form.set("name", `Candidate ${k + 1}`);
        form.set("positionId", positionId);
        const res = await api("/admin/candidates", { method: "POST", token: admin, form });
        if (res.status !== 201) throw new Error(`candidate: ${res.status} ${await res.text()}`);
        ids.push(((await res.json()) as { _id: string })._id);
      }
      // The bench election's rankings (bench/count.ts), mapped onto the server's candidate ids.
      const { candidates, ballots } = rankedElection(ballotCount + extra, candidateCount);
      const idOf = new Map(candidates.map((c, i) => [c, ids[i]]));
      const vote = async (i: number) => {
        const res = await api("/vote", { method: "POST", token: tokenOf(i + 1), json: { positionId, ranking: ballots[i].map((c) => idOf.get(c)!) } });
        if (res.status !== 201) throw new Error(`vote ${i + 1}: ${res.status} ${await res.text()}`);
      };
      const started = performance.now();
      let next = 0;
      await Promise.all(Array.from({ length: connections }, async () => {
        while (next < ballotCount) await vote(next++);
      }));
      console.log(`count    ${ballotCount.toLocaleString("en-US")} ranked ballots (${candidateCount} candidates, ${seats} seats, live count on) cast through POST /vote in ${((performance.now() - started) / 1000).toFixed(1)} s`);

      // The probe: a request every 10 ms that needs nothing but the event loop.
      let probe: number[] = [];
      let probing = true;
      /** What the server was asked to do meanwhile, and the slowest probe answer in each. */
      let phase = "quiet";
      /** When each phase began, on the clock a V8 profile uses (monotonic, µs): bench/event-loop-blocks.ts slices a profile by them. */
      const phases: { phase: string; atUs: number }[] = [];
      const enter = (name: string) => {
        phase = name;
        phases.push({ phase: name, atUs: Number(process.hrtime.bigint() / 1000n) });
      };
      enter("quiet");
      const slowest = new Map<string, number>();
      const startProbe = () =>
        (async () => {
          while (probing) {
            const t0 = performance.now();
            const during = phase;
            await (await api("/health")).arrayBuffer();
            const ms = performance.now() - t0;
            probe.push(ms);
            slowest.set(during, Math.max(slowest.get(during) ?? 0, ms));
            await sleep(10);
          }
        })();
      // First with nothing to count, as a baseline on this (shared) machine.
      let prober = startProbe();
      await sleep(15_000);
      probing = false;
      await prober;
      const quiet = [...probe].sort((a, b) => a - b);
      probe = [];
      probing = true;
      prober = startProbe();
      const timed = async (path: string) => {
        const t0 = performance.now();
        const res = await api(path, { token: admin });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
        return { ms: performance.now() - t0, body };
      };
      const countMs: number[] = [];
      enter("recount");
      for (let i = 0; i < extra; i++) {
        await vote(ballotCount + i);
        // A new results version each time; the snapshot may be served stale while the thread counts, so ask until it shows the vote.
        const t0 = performance.now();
        for (;;) {
          if (performance.now() - t0 > 60_000) throw new Error("the results did not show the vote within 60 s");
          const { body } = await timed("/vote/results");
          const entry = (JSON.parse(body) as { results: { positionId: string; totalVotes: number; count?: string }[] }).results.find((r) => r.positionId === positionId)!;
          if (entry.count === "full" && entry.totalVotes >= ballotCount + i + 1) break;
          await sleep(20);
        }
        countMs.push(performance.now() - t0);
      }
      // Close the position, then export its ballots a few times.
      enter("close");
      const closeAt = Date.now() + 1_000;
      const patched = await api(`/admin/positions/${positionId}`, { method: "PATCH", token: admin, json: { endTime: new Date(closeAt).toISOString() } });
      if (patched.status !== 200) throw new Error(`close: ${patched.status} ${await patched.text()}`);
      await sleep(closeAt - Date.now() + 1_500);
      const bltMs: number[] = [];
      enter("blt");
      for (let i = 0; i < 5; i++) {
        for (let tries = 0; ; tries++) {
          if (tries > 300) throw new Error("the BLT file was not published within a minute of the close");
          const res = await api(`/admin/positions/${positionId}/ballots.blt`, { token: admin });
          await res.arrayBuffer();
          if (res.status === 200) break;
          await sleep(200); // the mixer's last pass after the close
        }
        bltMs.push((await timed(`/admin/positions/${positionId}/ballots.blt`)).ms);
      }
      enter("end");
      probing = false;
      await prober;
      const sorted = [...probe].sort((a, b) => a - b);
      await server.stop();
      if (cpuProfDir) writeFileSync(join(cpuProfDir, `phases-${server.pid}.json`), JSON.stringify(phases));
      const total = ballotCount + extra;
      const out = {
        ballots: total,
        recountMaxMs: slowest.get("recount") ?? NaN,
        bltMaxMs: slowest.get("blt") ?? NaN,
        quietMaxMs: quiet.at(-1) ?? NaN,
        quietP99Ms: percentile(quiet, 99),
        probeMaxMs: sorted.at(-1) ?? NaN,
        probeP99Ms: percentile(sorted, 99),
        countMs,
        bltMs,
        bytesPerBallot: (fileBytes(dbPath) - seeded) / total,
      };
      const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
      console.log(`count    recount after each of ${extra} more votes (until the results show it): ${list(countMs)} ms; BLT export of ${total.toLocaleString("en-US")} ballots: ${list(bltMs)} ms`);
      console.log(`count    /api/health every 10 ms meanwhile (${probe.length} requests): p99 ${out.probeP99Ms.toFixed(1)} ms, slowest ${out.probeMaxMs.toFixed(1)} ms; for 15 s before, with nothing counted (${quiet.length} requests): p99 ${out.quietP99Ms.toFixed(1)} ms, slowest ${out.quietMaxMs.toFixed(1)} ms; slowest by phase: ${[...slowest].map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(", ")}`);
      console.log(`count    database growth per ranked ballot (64 candidates): ${Math.round(out.bytesPerBallot).toLocaleString("en-US")} bytes (${((fileBytes(dbPath) - seeded) / 1e6).toFixed(1)} MB for ${total.toLocaleString("en-US")})`);
      return out;
    } finally {
      await server.stop().catch(() => undefined);
    }
  } finally {
    cleanup();
  }
}
