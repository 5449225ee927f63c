/**
 * The writer thread (worker_threads): owns the write connection of every `file:` database the
 * process opened and runs each group commit (BEGIN IMMEDIATE … COMMIT, fsync included), so
 * the event loop that serves requests never waits on the disk. One thread per process, one
 * connection per database; messages are handled in order, and transactions that queued
 * while the thread was busy share one commit.
 *
 * Started by `threadExecutor` (writer.ts): from source through writer-thread-boot.mjs (which
 * loads TypeScript), from the server bundle as api/dist/writer-thread.mjs (paths.ts).
 */
import { parentPort, receiveMessageOnPort } from "node:worker_threads";
import type { InStatement } from "@libsql/client";
import { DirectConnection, type WriteResult } from "./direct.ts";
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

const port = parentPort;
if (!port) throw new Error("writer-thread.ts runs only as a worker thread");

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

/** Consecutive transactions on one database: one commit for all (DirectConnection.transactions). */
function runTransactions(group: Extract<ToWriter, { op: "tx" }>[], replies: FromWriter[]): void {
  const connection = connections.get(group[0].db);
  if (!connection) {
    const error = whyNotOpen(group[0].db);
    for (const msg of group) replies.push(answer(msg.id, { error }));
    return;
  }
  const outcomes = connection.transactions(group.map((msg) => msg.statements));
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
 */
port.on("message", (head: ToWriter) => {
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
