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
import { writerThreadUrl } from "../paths.ts";
import type { ConnectionSettings } from "./pragmas.ts";
import type { WriteExecutor, WriteResult, WriteStatement } from "./writer.ts";
import type { FromWriter, ToWriter, WireError } from "./writer-thread.ts";

interface Waiting {
  resolve: (value: WriteResult[]) => void;
  reject: (error: unknown) => void;
}

let worker: Worker | null = null;
const waiting = new Map<number, Waiting>();
let nextTx = 1;
let nextDb = 1;

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
  const w = new Worker(writerThreadUrl);
  w.unref();
  w.on("message", (replies: FromWriter[]) => {
    for (const msg of replies) {
      const entry = waiting.get(msg.id);
      if (!entry) continue;
      waiting.delete(msg.id);
      if ("error" in msg) entry.reject(new WriterThreadError(msg.error));
      else entry.resolve(msg.results);
    }
    if (waiting.size === 0) w.unref();
  });
  // A thread that dies takes its connections with it: fail what waits, start afresh next time
  // (nothing unacknowledged was reported as committed).
  const lost = (error: unknown) => {
    if (worker === w) worker = null;
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
function ask(post: (id: number) => Worker): Promise<WriteResult[]> {
  return new Promise<WriteResult[]>((resolve, reject) => {
    const id = nextTx++;
    waiting.set(id, { resolve, reject });
    try {
      post(id).ref();
    } catch (error) {
      waiting.delete(id);
      reject(error);
    }
  });
}

export interface ThreadExecutor extends WriteExecutor {
  /** The thread commits transactions that queue while it is busy together (writer-thread.ts). */
  readonly groupsQueued: true;
  transaction(statements: WriteStatement[]): Promise<WriteResult[]>;
  checkpoint(): Promise<boolean>;
  /** Closes this database's connection in the thread (the thread stays for other databases). */
  close(): void;
}

export function threadExecutor(path: string, options: ConnectionSettings): ThreadExecutor {
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
    ask((id) => send(statements ? { op: "tx", id, db, statements } : { op: "checkpoint", id, db }));
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
