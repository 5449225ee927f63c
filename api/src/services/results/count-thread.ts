/**
 * The count thread (worker_threads): ranked counts and BLT files are made here, never on the
 * event loop that serves requests. With 64 candidates and 20,000 ballots, reading and decoding
 * the marks and counting Scottish STV take hundreds of milliseconds; every other request would
 * wait that long. A database file is read on the thread's own connection (WAL: the readers
 * never block the writer); for any other database the caller sends the stored marks along.
 *
 * Started by counter.ts: from source through count-thread-boot.mjs (which loads TypeScript),
 * from the server bundle as api/dist/count-thread.mjs (paths.ts).
 */
import { parentPort } from "node:worker_threads";
import { countInstantRunoff, countStv, decodeMarks, writeBlt, type CountResult } from "@evoting/shared";
import { DirectConnection } from "../../db/direct.ts";

/** Where a job's ballots come from: the database file, or the marks themselves. */
export type BallotSource = { path: string; positionId: string } | { marks: (string | null)[] };

export type ToCounter =
  | { op: "count"; id: number; source: BallotSource; candidates: string[]; seats: number; rule: "scottish-stv" | "instant-runoff"; lotSeed: string }
  | { op: "blt"; id: number; source: BallotSource; title: string; seats: number; candidates: { id: string; name: string }[] };

export type FromCounter = { id: number; result: CountResult } | { id: number; text: string } | { id: number; error: string };

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

export function handle(msg: ToCounter): FromCounter {
  try {
    const ballots = ballotsOf(msg.source);
    if (msg.op === "blt") return { id: msg.id, text: writeBlt({ title: msg.title, seats: msg.seats, candidates: msg.candidates, ballots }) };
    const input = { candidates: msg.candidates, seats: msg.seats, ballots, lotSeed: msg.lotSeed };
    return { id: msg.id, result: msg.rule === "scottish-stv" ? countStv(input) : countInstantRunoff(input) };
  } catch (error) {
    return { id: msg.id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on("message", (msg: ToCounter) => parentPort!.postMessage(handle(msg)));
