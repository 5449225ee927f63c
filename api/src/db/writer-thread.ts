/**
 * The writer thread (worker_threads): owns the write connection of every `file:` database the
 * process opened and runs each group commit (`commitTogether`: BEGIN IMMEDIATE … COMMIT; the
 * COMMIT is the fsync under synchronous=FULL), so the event loop that serves requests never
 * waits on the disk. One thread per process, one connection per database; messages are
 * handled in order, and transactions that queued while the thread was busy share one commit.
 *
 * Started by `threadExecutor` (writer.ts): from source through writer-thread-boot.mjs (which
 * loads TypeScript), from the server bundle as api/dist/writer-thread.mjs (paths.ts).
 */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import type { InStatement } from "@libsql/client";
import { DirectConnection, type WriteResult } from "./direct.ts";
import { WRITER_THREAD } from "../paths.ts";
import type { ConnectionSettings } from "./pragmas.ts";

export type ToWriter =
  | ({ op: "open"; db: number; path: string } & ConnectionSettings)
  /** One transaction's statements, in order (a structured clone of what the caller submitted). */
  | { op: "tx"; id: number; db: number; statements: InStatement[] }
  /** WAL checkpoint(TRUNCATE) between transactions; answers one result, rowsAffected 1 when done. */
  | { op: "checkpoint"; id: number; db: number }
  | { op: "close"; db: number };

/** An error as it crosses the thread: what callers read of a driver error. */
export interface WireError {
  name: string;
  message: string;
  code?: string;
  rawCode?: number;
}

/** A transaction's answer. The thread posts an array of them: every answer of one commit. */
export type FromWriter = { id: number; results: WriteResult[] } | { id: number; error: WireError };

/** All statements in one write transaction (BEGIN IMMEDIATE): all committed or none. */
export function commitOne(connection: DirectConnection, statements: InStatement[]): WriteResult[] {
  connection.run("BEGIN IMMEDIATE");
  try {
    const results = connection.executeAll(statements);
    connection.run("COMMIT");
    return results;
  } catch (error) {
    connection.rollback();
    throw error;
  }
}

/**
 * Several transactions in ONE commit (one fsync): each runs inside its own savepoint, so
 * each is still all-or-nothing. One that fails is rolled back to its savepoint and answered
 * with its error alone; the others commit together. When an error ends the whole transaction
 * (the disk, say), or the COMMIT fails, every unit it held gets that error: none of them was
 * committed.
 */
export function commitTogether(connection: DirectConnection, units: InStatement[][]): ({ results: WriteResult[] } | { error: unknown })[] {
  if (units.length === 1) {
    try {
      return [{ results: commitOne(connection, units[0]) }];
    } catch (error) {
      return [{ error }];
    }
  }
  const out = new Array<{ results: WriteResult[] } | { error: unknown }>(units.length);
  /** The first unit of the transaction open now, or -1. */
  let first = -1;
  const failOpen = (upTo: number, error: unknown) => {
    for (let u = first; u < upTo; u++) if (!("error" in out[u])) out[u] = { error };
    first = -1;
  };
  for (let k = 0; k < units.length; k++) {
    try {
      if (first < 0) {
        connection.run("BEGIN IMMEDIATE");
        first = k;
      }
    } catch (error) {
      out[k] = { error };
      continue;
    }
    try {
      connection.run("SAVEPOINT unit");
      const results = connection.executeAll(units[k]);
      connection.run("RELEASE unit");
      out[k] = { results };
    } catch (error) {
      out[k] = { error };
      try {
        if (connection.inTransaction) {
          connection.run("ROLLBACK TO unit");
          connection.run("RELEASE unit");
        }
      } catch {
        connection.rollback();
      }
      if (!connection.inTransaction) failOpen(k, error);
    }
  }
  if (first >= 0) {
    try {
      connection.run("COMMIT");
    } catch (error) {
      connection.rollback();
      failOpen(units.length, error);
    }
  }
  return out;
}

const connections = new Map<number, DirectConnection>();
/** Why a database could not be opened: every transaction on it fails with this. */
const openErrors = new Map<number, unknown>();

function toWire(error: unknown): WireError {
  const e = error as { name?: unknown; message?: unknown; code?: unknown; rawCode?: unknown };
  return {
    name: typeof e?.name === "string" ? e.name : "Error",
    message: typeof e?.message === "string" ? e.message : String(error),
    ...(typeof e?.code === "string" ? { code: e.code } : {}),
    ...(typeof e?.rawCode === "number" ? { rawCode: e.rawCode } : {}),
  };
}

/** Why a database has no connection here: its open failed, or it was never opened (or closed). */
const whyNotOpen = (db: number): unknown => openErrors.get(db) ?? new Error(`database ${db} is not open in the writer thread`);

function answer(id: number, outcome: { results: WriteResult[] } | { error: unknown }): FromWriter {
  if ("error" in outcome) return { id, error: toWire(outcome.error) };
  return { id, results: outcome.results };
}

/** Consecutive transactions on one database: one commit for all (`commitTogether`). */
function runTransactions(group: Extract<ToWriter, { op: "tx" }>[], replies: FromWriter[]): void {
  const connection = connections.get(group[0].db);
  if (!connection) {
    const error = whyNotOpen(group[0].db);
    for (const msg of group) replies.push(answer(msg.id, { error }));
    return;
  }
  const outcomes = commitTogether(connection, group.map((msg) => msg.statements));
  group.forEach((msg, i) => replies.push(answer(msg.id, outcomes[i])));
}

function runOther(msg: Exclude<ToWriter, { op: "tx" }>, replies: FromWriter[]): void {
  switch (msg.op) {
    case "open":
      try {
        connections.set(msg.db, new DirectConnection(msg.path, msg));
      } catch (error) {
        openErrors.set(msg.db, error);
      }
      return;
    case "close":
      connections.get(msg.db)?.close();
      connections.delete(msg.db);
      openErrors.delete(msg.db);
      return;
    case "checkpoint": {
      const connection = connections.get(msg.db);
      try {
        if (!connection) throw whyNotOpen(msg.db);
        replies.push({ id: msg.id, results: [{ rowsAffected: connection.checkpoint() ? 1 : 0, rows: [] }] });
      } catch (error) {
        replies.push({ id: msg.id, error: toWire(error) });
      }
    }
  }
}

const isTxOn = (msg: ToWriter, db: number) => msg.op === "tx" && msg.db === db;

/**
 * Group commit on this thread: everything already queued behind a message is taken at once,
 * and consecutive transactions on one database share one commit. So the thread is never idle
 * while work waits, and what queued during one commit goes in the next. Messages are still
 * handled in the order they were sent. The answers of a commit go back together as soon as
 * it returned (a caller is acknowledged after the fsync), not after the rest of the round.
 * Imported anywhere but the thread writer.ts starts (tests of the commit functions above), it
 * serves nothing.
 */
const port = workerData === WRITER_THREAD ? parentPort : null;
port?.on("message", (head: ToWriter) => {
  if (!port) return;
  const queued: ToWriter[] = [head];
  for (let next = receiveMessageOnPort(port); next !== undefined; next = receiveMessageOnPort(port)) queued.push(next.message as ToWriter);
  for (let i = 0; i < queued.length; ) {
    const msg = queued[i];
    const replies: FromWriter[] = [];
    if (msg.op !== "tx") {
      runOther(msg, replies);
      i++;
    } else {
      let end = i + 1;
      while (end < queued.length && isTxOn(queued[end], msg.db)) end++;
      runTransactions(queued.slice(i, end) as Extract<ToWriter, { op: "tx" }>[], replies);
      i = end;
    }
    if (replies.length > 0) port.postMessage(replies);
  }
});
