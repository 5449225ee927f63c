/**
 * The main-thread side of the count thread (count-thread.ts): `count` and `blt` resolve with
 * what the thread made, and the event loop serves other requests meanwhile. One thread per
 * process, started on the first ranked count and shared by every database the process opens;
 * it holds the process open only while a job is in flight. A thread that dies fails what
 * waits on it and is started afresh for the next job.
 */
import { Worker } from "node:worker_threads";
import type { CountResult } from "@evoting/shared";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { ballots } from "../../db/schema.ts";
import { countThreadUrl } from "../../paths.ts";
import type { Keys } from "../../security/keys.ts";
import type { SnapshotFindings } from "../accountability/ballot-match.ts";
import type { BallotSource, FromCounter, ToCounter } from "./count-thread.ts";

/** A job as sent to the thread, less the id `post` gives it. */
type Job<T = ToCounter> = T extends ToCounter ? Omit<T, "id"> : never;
type RankedJob = { op: "count"; candidates: string[]; seats: number; rule: "scottish-stv" | "instant-runoff"; lotSeed: string } | { op: "blt"; title: string; seats: number; candidates: { id: string; name: string }[] };

let worker: Worker | null = null;
const waiting = new Map<number, { resolve: (msg: FromCounter) => void; reject: (error: unknown) => void }>();
let nextJob = 1;

function thread(): Worker {
  if (worker) return worker;
  const w = new Worker(countThreadUrl);
  w.unref();
  w.on("message", (msg: FromCounter) => {
    const entry = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (waiting.size === 0) w.unref();
    if (!entry) return;
    if ("error" in msg) entry.reject(new Error(`count thread: ${msg.error}`));
    else entry.resolve(msg);
  });
  const lost = (error: unknown) => {
    if (worker === w) worker = null;
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };
  w.on("error", lost);
  w.on("exit", (code) => lost(new Error(`the count thread exited (${code})`)));
  worker = w;
  return w;
}

/**
 * A database file is read by the thread itself; any other database (`:memory:`, remote) is
 * read here and its marks are sent along, as the thread cannot open it.
 */
async function sourceOf(database: Database, positionId: string): Promise<BallotSource> {
  if (database.filePath) return { path: database.filePath, positionId };
  const rows = await database.db
    .select({ marks: ballots.marks })
    .from(ballots)
    .where(and(eq(ballots.positionId, positionId), eq(ballots.choice, "ranked")));
  return { marks: rows.map((r) => r.marks) };
}

function post(job: Job): Promise<FromCounter> {
  return new Promise((resolve, reject) => {
    const id = nextJob++;
    waiting.set(id, { resolve, reject });
    const w = thread();
    w.ref();
    w.postMessage({ ...job, id } as ToCounter);
  });
}

async function run(database: Database, positionId: string, job: RankedJob): Promise<FromCounter> {
  return post({ ...job, source: await sourceOf(database, positionId) });
}

/** A ranked position's count (Scottish STV or instant-runoff), made in the count thread. */
export async function countRanked(
  database: Database,
  positionId: string,
  input: { candidates: string[]; seats: number; rule: "scottish-stv" | "instant-runoff"; lotSeed: string },
): Promise<CountResult> {
  const answer = await run(database, positionId, { op: "count", ...input });
  if (!("result" in answer)) throw new Error("count thread: no result");
  return answer.result;
}

/** A ranked position's ballots as a BLT file (shared writeBlt), made in the count thread. */
export async function rankedBlt(
  database: Database,
  positionId: string,
  election: { title: string; seats: number; candidates: { id: string; name: string }[] },
): Promise<string> {
  const answer = await run(database, positionId, { op: "blt", ...election });
  if (!("text" in answer)) throw new Error("count thread: no file");
  return answer.text;
}

/**
 * The integrity check's snapshot of a database file, read and checked in the count thread
 * (ballot-integrity.ts `integrityOfReads`): the server's seal and ballot keys go with the job.
 */
export async function checkInCountThread(path: string, keys: Pick<Keys, "seal" | "ballot">): Promise<SnapshotFindings> {
  const answer = await post({ op: "integrity", path, keys: { seal: keys.seal, ballot: keys.ballot } });
  if (!("findings" in answer)) throw new Error("count thread: no findings");
  return answer.findings;
}
