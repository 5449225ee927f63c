/**
 * The count thread (worker_threads): ranked counts, BLT files and the integrity check's
 * snapshot are made here, never on the event loop that serves requests. With 64 candidates and
 * 20,000 ballots, reading and decoding the marks and counting Scottish STV take hundreds of
 * milliseconds, and reading and unsealing every participation and ballot for the integrity
 * check seconds; every other request would wait that long. A database file is read on the
 * thread's own connection (WAL: the readers never block the writer); for any other database
 * the caller sends the stored marks along (counts) or checks in process (integrity).
 *
 * Started by counter.ts: from source through count-thread-boot.mjs (which loads TypeScript),
 * from the server bundle as api/dist/count-thread.mjs (paths.ts).
 */
import { parentPort } from "node:worker_threads";
import { countInstantRunoff, countStv, decodeMarks, writeBlt, type CountResult } from "@evoting/shared";
import { DirectConnection } from "../../db/direct.ts";
import { INTEGRITY_READS, integrityOfReads, type SnapshotFindings } from "../accountability/ballot-match.ts";

/** Where a job's ballots come from: the database file, or the marks themselves. */
export type BallotSource = { path: string; positionId: string } | { marks: (string | null)[] };

export type ToCounter =
  | { op: "count"; id: number; source: BallotSource; candidates: string[]; seats: number; rule: "scottish-stv" | "instant-runoff"; lotSeed: string }
  | { op: "blt"; id: number; source: BallotSource; title: string; seats: number; candidates: { id: string; name: string }[] }
  | { op: "integrity"; id: number; path: string; keys: { seal: Uint8Array; ballot: Uint8Array } };

export type FromCounter =
  | { id: number; result: CountResult }
  | { id: number; text: string }
  | { id: number; findings: SnapshotFindings }
  | { id: number; error: string };

/** A ranked position's stored marks (shared `encodeMarks`); the only query the thread runs. */
export const RANKED_MARKS_SQL = "SELECT marks FROM ballots WHERE position_id = ? AND choice = 'ranked'";

function ballotsOf(source: BallotSource): string[][] {
  if ("marks" in source) return source.marks.map(decodeMarks);
  // A connection per job: the thread serves every database the process opens (tests open
  // hundreds) and holds none of them open between counts.
  const connection = new DirectConnection(source.path, { synchronous: "NORMAL", busyTimeoutMs: 5_000 });
  try {
    return connection.execute({ sql: RANKED_MARKS_SQL, args: [source.positionId] }).rows.map((r) => decodeMarks(r.marks as string | null));
  } finally {
    connection.close();
  }
}

/** Every read of the integrity check in one read transaction: one snapshot, whatever commits meanwhile. */
function snapshot(path: string): { rows: Record<string, unknown>[] }[] {
  const connection = new DirectConnection(path, { synchronous: "NORMAL", busyTimeoutMs: 5_000 });
  try {
    connection.run("BEGIN");
    try {
      return INTEGRITY_READS.map((sql) => ({ rows: connection.execute(sql).rows }));
    } finally {
      connection.rollback();
    }
  } finally {
    connection.close();
  }
}

export async function handle(msg: ToCounter): Promise<FromCounter> {
  try {
    if (msg.op === "integrity") {
      // Keys arrive as plain bytes (a Buffer is cloned as a Uint8Array).
      const keys = { seal: Buffer.from(msg.keys.seal), ballot: Buffer.from(msg.keys.ballot) };
      return { id: msg.id, findings: await integrityOfReads(keys, snapshot(msg.path)) };
    }
    const ballots = ballotsOf(msg.source);
    if (msg.op === "blt") return { id: msg.id, text: writeBlt({ title: msg.title, seats: msg.seats, candidates: msg.candidates, ballots }) };
    const input = { candidates: msg.candidates, seats: msg.seats, ballots, lotSeed: msg.lotSeed };
    return { id: msg.id, result: msg.rule === "scottish-stv" ? countStv(input) : countInstantRunoff(input) };
  } catch (error) {
    return { id: msg.id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on("message", (msg: ToCounter) => void handle(msg).then((answer) => parentPort!.postMessage(answer)));
