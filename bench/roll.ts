/**
 * `node --import tsx bench/roll.ts` (not part of `npm test`): the voter roll and
 * date-of-birth sign-in against the real server on a temp database.
 *   --only=import,list,signin   parts (default all)
 *   --rows=10000                roll size
 * import: a 10,000-row CSV checked (dry run) then applied, then re-imported (target: check +
 *   apply < 10 s). list: GET /admin/voters pages with search, group and voted filters at
 *   10,000 voters (target: p99 < 50 ms per page). signin: date-of-birth logins under the keyed
 *   hash, and the first sign-in of voters still holding an argon2id hash (upgraded as they go).
 */
import { loadavg } from "node:os";
import { openDatabase } from "../api/src/db/client.ts";
import { hashSecret } from "../api/src/security/passwords.ts";
import { listVoters, type VoterFilter } from "../api/src/services/roll/roll.ts";
import { intArg, parseArgs } from "./lib/args.ts";
import { ADMIN_MATRIC, ADMIN_PASSWORD, startServer } from "./lib/server.ts";
import { tempDir } from "./lib/seed.ts";
import { Latencies, ms, percentile, table } from "./lib/stats.ts";

const args = parseArgs();
const ALL = ["import", "list", "signin"];
const only = new Set((args.get("only") ?? ALL.join(",")).split(",").map((s) => s.trim()));
const ROWS = intArg(args, "rows", 10_000);
const GROUPS = ["100L", "200L", "300L", "400L", "500L"];
const TRACKS = ["Software", "Networks", "Data", "Security"];
const matric = (i: number) => `2025/5570${String(i).padStart(6, "0")}`;
const dob = (i: number) => `${1998 + (i % 8)}${String((i % 12) + 1).padStart(2, "0")}${String((i % 28) + 1).padStart(2, "0")}`;

function rollCsv(rows: number, nameSuffix = ""): string {
  const lines = ["matricNumber,name,dateOfBirth,email,groups"];
  for (let i = 1; i <= rows; i++) {
    const email = i % 3 === 0 ? `student${i}@uniport.edu.ng` : "";
    lines.push(`${matric(i)},"Student ${i}${nameSuffix}, Jr",${dob(i)},${email},${GROUPS[i % 5]};${TRACKS[i % 4]}`);
  }
  return lines.join("\r\n") + "\r\n";
}

const tmp = tempDir("roll");
const server = await startServer({ dbPath: tmp.dbPath });
const verdicts: string[] = [];
const check = (ok: boolean, text: string) => verdicts.push(`${ok ? "MET   " : "MISSED"}  ${text}`);

async function post(path: string, body: string | object, token?: string, type = "application/json") {
  const headers: Record<string, string> = { "content-type": type };
  if (token) headers.authorization = `Bearer ${token}`;
  const started = performance.now();
  const res = await fetch(`${server.url}/api${path}`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  return { status: res.status, json, ms: performance.now() - started };
}

try {
  console.log(`roll bench: ${[...only].join(", ")}; ${ROWS} rows, node ${process.version}, load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
  const admin = String((await post("/auth/login", { matricNumber: ADMIN_MATRIC, password: ADMIN_PASSWORD })).json.token);

  // The roll is needed by every part: imported through the API either way.
  const csv = rollCsv(ROWS);
  const dry = await post("/admin/voters/import?dryRun=1", csv, admin, "text/csv");
  const apply = await post("/admin/voters/import?dryRun=0", csv, admin, "text/csv");
  if (apply.status !== 200) throw new Error(`import failed: ${apply.status} ${JSON.stringify(apply.json).slice(0, 300)}`);
  if (only.has("import")) {
    const again = await post("/admin/voters/import?dryRun=0", csv, admin, "text/csv");
    const corrected = await post("/admin/voters/import?dryRun=0", rollCsv(ROWS, " II"), admin, "text/csv");
    console.log(
      table([
        { step: "check (dry run)", rows: ROWS, time: ms(dry.ms), created: Number(dry.json.created), updated: Number(dry.json.updated), unchanged: Number(dry.json.unchanged) },
        { step: "apply", rows: ROWS, time: ms(apply.ms), created: Number(apply.json.created), updated: Number(apply.json.updated), unchanged: Number(apply.json.unchanged) },
        { step: "re-import, same file", rows: ROWS, time: ms(again.ms), created: Number(again.json.created), updated: Number(again.json.updated), unchanged: Number(again.json.unchanged) },
        { step: "re-import, every name changed", rows: ROWS, time: ms(corrected.ms), created: Number(corrected.json.created), updated: Number(corrected.json.updated), unchanged: Number(corrected.json.unchanged) },
      ]),
    );
    check(dry.ms + apply.ms < 10_000, `import ${ROWS} rows, check + apply < 10 s: ${ms(dry.ms + apply.ms)}`);
    check(Number(again.json.unchanged) === ROWS, `re-import of the same file changes nothing: ${String(again.json.unchanged)} unchanged`);
  }

  if (only.has("list")) {
    const lat = new Latencies();
    const kinds: [string, () => string][] = [
      ["page", () => `page=${1 + Math.floor(Math.random() * Math.ceil(ROWS / 50))}`],
      ["search matric", () => `query=${encodeURIComponent(`5570${String(Math.floor(Math.random() * ROWS)).padStart(6, "0").slice(0, 4)}`)}`],
      ["search name", () => `query=${encodeURIComponent(`Student ${Math.floor(Math.random() * ROWS)}`)}`],
      ["group", () => `group=${GROUPS[Math.floor(Math.random() * 5)]}&page=${1 + Math.floor(Math.random() * 20)}`],
      ["not voted, last page", () => `voted=no&page=${Math.ceil(ROWS / 50)}`],
      ["group + search + voted", () => `group=300L&query=Student%201&voted=no`],
    ];
    for (let round = 0; round < 150; round++) {
      for (const [kind, qs] of kinds) {
        const started = performance.now();
        const res = await fetch(`${server.url}/api/admin/voters?${qs()}`, { headers: { authorization: `Bearer ${admin}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`list ${kind}: ${res.status}`);
        const t = performance.now() - started;
        lat.add(kind, t);
        lat.add("all", t);
      }
    }
    console.log(table(lat.summary().map((s) => ({ request: s.kind, count: s.count, p50: ms(s.p50), p95: ms(s.p95), p99: ms(s.p99), max: ms(s.max) }))));
    const all = lat.summary().find((s) => s.kind === "all")!;
    check(all.p99 < 50, `voter list p99 < 50 ms per page at ${ROWS} voters (HTTP): ${ms(all.p99)}`);

    // The same queries in this process on the same file: the server's own work per page, apart
    // from HTTP and from waiting for a core on a loaded machine.
    const database = await openDatabase({ url: `file:${tmp.dbPath}`, synchronous: "NORMAL" });
    const filters: [string, VoterFilter, () => number][] = [
      ["page", {}, () => 1 + Math.floor(Math.random() * Math.ceil(ROWS / 50))],
      ["search name", { query: `Student ${Math.floor(Math.random() * ROWS)}` }, () => 1],
      ["group", { group: "300L" }, () => 1 + Math.floor(Math.random() * 20)],
      ["not voted", { voted: false }, () => Math.ceil(ROWS / 50)],
    ];
    const service: number[] = [];
    for (let round = 0; round < 150; round++) {
      for (const [, filter, page] of filters) {
        const started = performance.now();
        await listVoters(database, filter, page());
        service.push(performance.now() - started);
      }
    }
    database.close();
    service.sort((a, b) => a - b);
    console.log(`list service time in-process (${service.length} pages): p50 ${ms(percentile(service, 50))}, p99 ${ms(percentile(service, 99))}`);
    check(percentile(service, 99) < 50, `voter list service time p99 < 50 ms: ${ms(percentile(service, 99))}`);
  }

  if (only.has("signin")) {
    const login = (i: number) => post("/auth/login", { matricNumber: matric(i), dateOfBirth: Number(dob(i)) });
    const timed = async (label: string, ids: number[], concurrency: number) => {
      const times: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < ids.length) {
            const r = await login(ids[next++]);
            if (r.status !== 200) throw new Error(`${label}: login ${r.status} ${JSON.stringify(r.json)}`);
            times.push(r.ms);
          }
        }),
      );
      const wall = performance.now() - started;
      times.sort((a, b) => a - b);
      return { "date-of-birth sign-in": label, logins: ids.length, concurrency, "per s": Math.round((ids.length / wall) * 1000), p50: ms(percentile(times, 50)), p95: ms(percentile(times, 95)), p99: ms(percentile(times, 99)) };
    };
    // Voters 1-500 get an argon2id date-of-birth hash, as a roll made before keyed hashes holds.
    const database = await openDatabase({ url: `file:${tmp.dbPath}`, synchronous: "NORMAL" });
    const legacy = Array.from({ length: 500 }, (_, k) => k + 1);
    const hashes = await Promise.all(legacy.map((i) => hashSecret(dob(i))));
    await database.client.batch(legacy.map((i, k) => ({ sql: "UPDATE users SET dob_hash = ? WHERE matric_number = ?", args: [hashes[k], matric(i)] })), "write");
    database.close();

    const keyed = Array.from({ length: 2_000 }, (_, k) => 1_001 + k);
    const rows = [
      await timed("keyed hash, one at a time", keyed.slice(0, 500), 1),
      await timed("keyed hash, 25 at a time", keyed.slice(500), 25),
      await timed("argon2id (first sign-in, upgraded)", legacy, 25),
      await timed("same voters again (now keyed)", legacy, 25),
    ];
    console.log(table(rows));
  }
  console.log(`\nTargets:\n  ${verdicts.join("\n  ")}`);
} finally {
  await server.stop();
  tmp.cleanup();
}
