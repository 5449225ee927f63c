/**
 * The main-thread side of the writer thread (writer-thread.ts). `threadExecutor` is a
 * WriteExecutor like the others: `transaction(statements)` resolves with the results once
 * the thread has committed, and rejects with the driver's error (name, message, code).
 *
 * One thread per process, started on the first write and shared by every database the
 * process opens (tests open hundreds; each would otherwise pay a thread's start-up). The
 * thread holds the process open only while a transaction is in flight, so a script or test
 * exits as soon as its last write is acknowledged.
 */
import { Worker } from "node:worker_threads";
import { KeyRegistry, type KeyDefs, type WriteStatement } from "./deferred.ts";
import type { WriteExecutor, WriteResult } from "./writer.ts";
import type { FromWriter, ToWriter, WireError, WireStatement } from "./writer-thread.ts";

interface Waiting {
  /** A transaction's results, or a `ballots` request's ids and codes. */
  resolve: (value: WriteResult[] | string[]) => void;
  reject: (error: unknown) => void;
}

let worker: Worker | null = null;
const waiting = new Map<number, Waiting>();
let nextTx = 1;
let nextDb = 1;
/** SQL texts the current thread knows by number (the write path uses a few dozen fixed texts). */
let sqlIds = new Map<string, number>();
/** Texts beyond this many (SQL built with values inside) are sent whole, not remembered. */
const MAX_INTERNED = 2_000;
/** Key sets the current thread holds, for the sealed and fingerprinted arguments it computes (deferred.ts). */
const keySets = new KeyRegistry();

/** True when JSON carries `value` exactly (what the thread's driver would get from a structured clone). */
function jsonSafe(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object":
      // null, or a deferred argument in its wire form (plain strings, numbers and null inside).
      return value === null || (!ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer) && !(value instanceof Date));
    default:
      return false; // undefined (the driver refuses it; JSON would turn it into null), bigint
  }
}

function toWire(statements: WriteStatement[], defs: [number, string][], keyDefs: KeyDefs): { wire: WireStatement[]; json: boolean } {
  let json = true;
  const out = new Array<WireStatement>(statements.length);
  for (let i = 0; i < statements.length; i++) {
    const st = statements[i];
    const sql = typeof st === "string" ? st : st.sql;
    let ref: number | string | undefined = sqlIds.get(sql);
    if (ref === undefined) {
      if (sqlIds.size < MAX_INTERNED) {
        ref = sqlIds.size + 1;
        sqlIds.set(sql, ref);
        defs.push([ref, sql]);
      } else ref = sql;
    }
    const args = typeof st === "string" ? undefined : keySets.toWire(st.args, keyDefs);
    if (json && args !== undefined) json = Array.isArray(args) ? args.every(jsonSafe) : Object.values(args).every(jsonSafe);
    out[i] = [ref, args];
  }
  return { wire: out, json };
}

export class WriterThreadError extends Error {
  code?: string;
  rawCode?: number;
  constructor(wire: WireError) {
    super(wire.message);
    this.name = wire.name;
    if (wire.code !== undefined) this.code = wire.code;
    if (wire.rawCode !== undefined) this.rawCode = wire.rawCode;
  }
}

function failAll(error: unknown) {
  for (const w of waiting.values()) w.reject(error);
  waiting.clear();
}

function thread(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL("./writer-thread-boot.mjs", import.meta.url));
  w.unref();
  w.on("message", (replies: FromWriter[]) => {
    for (const msg of replies) {
      const entry = waiting.get(msg.id);
      if (!entry) continue;
      waiting.delete(msg.id);
      if ("error" in msg) entry.reject(new WriterThreadError(msg.error));
      else if ("counts" in msg) entry.resolve(Array.from(msg.counts, (rowsAffected) => ({ rowsAffected, rows: [] })));
      else if ("ballots" in msg) entry.resolve(msg.ballots);
      else entry.resolve(msg.results);
    }
    if (waiting.size === 0) w.unref();
  });
  // A thread that dies takes its connections with it: fail what waits, start afresh next time
  // (nothing unacknowledged was reported as committed).
  const lost = (error: unknown) => {
    if (worker === w) {
      worker = null;
      sqlIds = new Map(); // a new thread knows no texts, and no keys
      keySets.reset();
    }
    failAll(error);
  };
  w.on("error", lost);
  w.on("exit", (code) => lost(new Error(`the writer thread exited (${code})`)));
  worker = w;
  return w;
}

/**
 * Sends the message `post(id)` makes to the thread (it returns the thread it posted to) and
 * resolves with the answer under that id; the thread holds the process open meanwhile.
 */
function ask<T extends WriteResult[] | string[]>(post: (id: number) => Worker): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const id = nextTx++;
    waiting.set(id, { resolve: resolve as Waiting["resolve"], reject });
    try {
      post(id).ref();
    } catch (error) {
      waiting.delete(id);
      reject(error);
    }
  });
}

/**
 * `n` fresh ballot ids with their receipt codes under `receiptKey`, made on the writer thread:
 * [id, code, id, code, …] (services/votes/receipts.ts `BallotIds`).
 */
export const ballotsFromThread = (receiptKey: Buffer, n: number): Promise<string[]> =>
  ask((id) => {
    const w = thread();
    w.postMessage({ op: "ballots", id, n, receiptKey } satisfies ToWriter);
    return w;
  });

export interface ThreadExecutor extends WriteExecutor {
  /** The thread commits transactions that queue while it is busy together (writer-thread.ts). */
  readonly groupsQueued: true;
  transaction(statements: WriteStatement[]): Promise<WriteResult[]>;
  checkpoint(): Promise<boolean>;
  /** Closes this database's connection in the thread (the thread stays for other databases). */
  close(): void;
}

export function threadExecutor(path: string, options: { synchronous: "FULL" | "NORMAL"; busyTimeoutMs: number }): ThreadExecutor {
  const db = nextDb++;
  let opened: Worker | null = null;
  const send = (msg: ToWriter) => {
    const w = thread();
    // Opened lazily, and again if the thread was replaced after a crash.
    if (opened !== w) {
      w.postMessage({ op: "open", db, path, ...options } satisfies ToWriter);
      opened = w;
    }
    w.postMessage(msg);
    return w;
  };
  const request = (statements: WriteStatement[] | null) =>
    ask<WriteResult[]>((id) => {
      if (!statements) return send({ op: "checkpoint", id, db });
      const defs: [number, string][] = [];
      const keys: KeyDefs = [];
      const { wire, json } = toWire(statements, defs, keys);
      return send({ op: "tx", id, db, defs, ...(keys.length > 0 ? { keys } : {}), ...(json ? { json: JSON.stringify(wire) } : { statements: wire }) });
    });
  return {
    groupsQueued: true,
    transaction: (statements) => request(statements),
    checkpoint: async () => (await request(null))[0].rowsAffected === 1,
    close() {
      if (opened && opened === worker) opened.postMessage({ op: "close", db } satisfies ToWriter);
      opened = null;
    },
  };
}
