/**
 * A 10,000-ballot Belenios archive served by the real server (part of
 * `npm run bench -- --only=belenios`; alone: `node --import tsx bench/belenios-archive.ts
 * [--ballots=10000] [--requests=3] [--cpu-prof=DIR]`). A verifiable position (5 candidates, the server its trustee)
 * is made and locked through the API; the server is stopped and its board is filled in the
 * database file with Ballot events chained to the lock's Setup event (20 real ballots repeated:
 * building 10,000 would take minutes, and the archive's size is the same); the server starts again
 * and `GET /api/positions/:id/archive.bel` is timed from the request to the last byte read, over
 * loopback, with /api/health asked every 10 ms meanwhile (the longest of those answers is what any
 * other request waited).
 */
import { get } from "node:http";
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { electionFingerprint, eventRecords, G, generateBallot, generateCredential, parseElection, precomputeBase } from "@evoting/shared/belenios";
import { openDatabase } from "../api/src/db/client.ts";
import { useNativeModPow } from "../api/src/services/belenios/modpow.ts";
import { intArg, parseArgs } from "./lib/args.ts";
import { tempDir } from "./lib/seed.ts";
import { startServer } from "./lib/server.ts";
import { lockedVerifiablePosition } from "./lib/verifiable.ts";

const DISTINCT = 20;

export interface ServedArchive {
  ballots: number;
  bytes: number;
  /** Each request's time from sending it to the last byte read. */
  ms: number[];
  /** The same to the answer's headers (the archive is streamed: they come before its first page). */
  headersMs: number[];
  /** The slowest /api/health answer while the archive was served. */
  healthMaxMs: number;
}

/** Appends `count` Ballot events to the position's board, chained to its last event, as the server appends them. */
async function fillBoard(dbPath: string, positionId: string, credentials: string[], count: number): Promise<void> {
  const database = await openDatabase({ url: `file:${dbPath}`, synchronous: "NORMAL" });
  try {
    const c = database.client;
    const [row] = (await c.execute({ sql: "SELECT election_json FROM belenios_positions WHERE position_id = ?", args: [positionId] })).rows;
    const electionJson = String(row!.election_json);
    const election = parseElection(electionJson);
    const fingerprint = electionFingerprint(electionJson);
    useNativeModPow();
    precomputeBase(G);
    precomputeBase(election.publicKey);
    const ballots = credentials.map((cred, k) => generateBallot(electionJson, election, fingerprint, cred, { selected: [k % 5] }));
    const [top] = (await c.execute({ sql: "SELECT seq, hash, content FROM belenios_records WHERE position_id = ? AND kind = 'event' ORDER BY seq DESC LIMIT 1", args: [positionId] })).rows;
    let seq = Number(top!.seq) + 1;
    let last = { hash: String(top!.hash), height: (JSON.parse(String(top!.content)) as { height: number }).height };
    for (let done = 0; done < count; ) {
      const statements = [];
      for (const end = Math.min(count, done + 500); done < end; done++) {
        const records = eventRecords(last, "Ballot", [ballots[done % ballots.length]!]);
        for (const r of records) statements.push({ sql: "INSERT INTO belenios_records (position_id, seq, kind, hash, content) VALUES (?, ?, ?, ?, ?)", args: [positionId, seq++, r.kind, r.hash, r.content] });
        last = { hash: records[records.length - 1]!.hash, height: last.height + 1 };
      }
      await c.batch(statements, "write");
    }
    await c.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    database.close();
  }
}

/**
 * A GET whose body is counted and dropped, as a download to disk would take it: fetch's
 * arrayBuffer() of 100 MB took 5-18 s here, against curl's 1.3 s for the same answer.
 */
function download(url: string, onHeaders: () => void): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      onHeaders();
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on("error", reject);
    }).on("error", reject);
  });
}

export async function servedArchive(count = 10_000, requests = 3, cpuProfDir?: string): Promise<ServedArchive> {
  const scratch = tempDir("belenios-archive");
  try {
    const credentials = Array.from({ length: DISTINCT }, () => generateCredential());
    let server = await startServer({ dbPath: scratch.dbPath });
    let positionId: string;
    try {
      positionId = await lockedVerifiablePosition(server.url, credentials);
    } finally {
      await server.stop();
    }
    await fillBoard(scratch.dbPath, positionId, credentials, count);
    server = await startServer({ dbPath: scratch.dbPath, nodeArgs: cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [] });
    const result: ServedArchive = { ballots: count, bytes: 0, ms: [], headersMs: [], healthMaxMs: 0 };
    try {
      for (let i = 0; i < requests; i++) {
        let serving = true;
        const probe = (async () => {
          while (serving) {
            const t = performance.now();
            await (await fetch(`${server.url}/api/health`)).arrayBuffer();
            result.healthMaxMs = Math.max(result.healthMaxMs, performance.now() - t);
            await new Promise((r) => setTimeout(r, 10));
          }
        })();
        const t = performance.now();
        const got = await download(`${server.url}/api/positions/${positionId}/archive.bel`, () => result.headersMs.push(performance.now() - t));
        result.ms.push(performance.now() - t);
        serving = false;
        await probe;
        if (got.status !== 200) throw new Error(`archive.bel: ${got.status}`);
        result.bytes = got.bytes;
      }
    } finally {
      await server.stop();
    }
    console.log(
      `${count.toLocaleString("en")}-ballot archive (${(result.bytes / 1e6).toFixed(1)} MB) served by the server, request to last byte  ${result.ms.map((t) => t.toFixed(0)).join(", ")} ms (to its headers ${result.headersMs.map((t) => t.toFixed(0)).join(", ")} ms); /api/health meanwhile answered in ${result.healthMaxMs.toFixed(0)} ms at worst`,
    );
    return result;
  } finally {
    scratch.cleanup();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = parseArgs();
  console.log(`load average ${loadavg().map((n) => n.toFixed(1)).join(" ")}`);
  await servedArchive(intArg(args, "ballots", 10_000), intArg(args, "requests", 3), args.get("cpu-prof"));
  console.log(`load average at the end ${loadavg().map((n) => n.toFixed(1)).join(" ")}`);
}
