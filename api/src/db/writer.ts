/**
 * Group commit. Requests that must write (votes, above all) hand their statements to the
 * writer, which runs everything queued within ~2 ms (or 200 submissions) as ONE
 * `batch(..., "write")`: one transaction and one fsync for many votes, each caller answered
 * only after the commit. The writer thread goes further: batches handed to it while it
 * commits are committed together in its next commit (writer-thread.ts). Statements of one
 * submission stay together and in order, so a submission may chain on `changes()` of its
 * own previous statement.
 *
 * If a combined batch fails (a foreign key broken by a concurrent delete, say), each
 * submission is retried alone so one bad request cannot fail its neighbours.
 *
 * How a transaction runs is the executor's business: on a `file:` database, in the writer
 * thread (`threadExecutor` below: prepared statements, the fsync off the event loop); elsewhere,
 * `client.batch(..., "write")`. Either way a caller is answered only after the commit.
 */
import type { Client, InStatement, InValue } from "@libsql/client";
import { Worker } from "node:worker_threads";
import { WRITER_THREAD, writerThreadUrl } from "../paths.ts";
import type { WriteResult } from "./direct.ts";
import type { ConnectionSettings } from "./pragmas.ts";
import type { FromWriter, ToWriter, WireError } from "./writer-thread.ts";

export type { WriteResult };

/** One statement of a write: SQL text, or SQL with positional or named arguments. */
export type WriteStatement = InStatement;

/** Runs statements, in order, as one write transaction: all committed or none. */
export interface WriteExecutor {
  transaction(statements: WriteStatement[]): Promise<WriteResult[]> | WriteResult[];
  /** WAL checkpoint(TRUNCATE) on the write connection, between transactions; true when done. */
  checkpoint?(): Promise<boolean> | boolean;
  /**
   * True when transactions handed over while one runs are queued and committed together
   * (the writer thread): the BatchWriter then hands each batch over without waiting for the
   * one before, so the executor never idles while votes wait on this side.
   */
  readonly groupsQueued?: boolean;
}

/** A drizzle query as a statement for the writer: the builder writes the SQL, the writer runs it. */
export function statementOf(query: { toSQL(): { sql: string; params: unknown[] } }): WriteStatement {
  const { sql, params } = query.toSQL();
  return { sql, args: params as InValue[] };
}

export const clientExecutor = (client: Client): WriteExecutor => ({
  transaction: (statements) => client.batch(statements, "write"),
});

/**
 * Statements every submission of a kind needs but one run per batch satisfies (deduplicated
 * by SQL text; the last submission's arguments win): `first` before every submission's own
 * statements, `last` after them.
 */
export interface Once {
  first?: WriteStatement[];
  last?: WriteStatement[];
}

interface Pending {
  statements: WriteStatement[];
  once: Once;
  resolve: (results: WriteResult[]) => void;
  reject: (error: unknown) => void;
}

export interface WriterOptions {
  maxDelayMs?: number;
  maxBatch?: number;
}

export class BatchWriter {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Batches handed to the executor and not yet answered. */
  private inFlight = 0;
  private readonly maxDelayMs: number;
  private readonly maxBatch: number;
  /** Commits and submissions so far, for benchmarks and health. */
  readonly stats = { batches: 0, submissions: 0 };

  constructor(
    private readonly executor: WriteExecutor,
    { maxDelayMs = 2, maxBatch = 200 }: WriterOptions = {},
  ) {
    this.maxDelayMs = maxDelayMs;
    this.maxBatch = maxBatch;
  }

  /**
   * `once`: statements every submission needs but one run per batch satisfies (the expired
   * idempotency keys' purge, the results version bump): 50 votes in a batch then cost 50 x 5
   * statements + 1, not 50 x 6.
   */
  submit(statements: WriteStatement[], once: Once = {}): Promise<WriteResult[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ statements, once, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Hands the queue over within `maxDelayMs` (at once when it holds `maxBatch`). An executor
   * that runs one transaction at a time gets the next batch only when the one before is
   * answered: what queued meanwhile goes at once, since it has already waited one commit.
   */
  private schedule(): void {
    if (this.queue.length === 0) return;
    if (this.inFlight > 0 && !this.executor.groupsQueued) return; // the running flush picks the queue up when it ends
    const delay = this.queue.length >= this.maxBatch ? 0 : this.maxDelayMs;
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.startFlush();
    }, delay);
  }

  private startFlush(): void {
    this.inFlight++;
    void this.flush().finally(() => {
      this.inFlight--;
      if (!this.executor.groupsQueued && this.queue.length > 0) this.startFlush();
    });
    if (this.executor.groupsQueued) this.schedule(); // whatever is left past maxBatch
  }

  private async run(statements: WriteStatement[]): Promise<WriteResult[]> {
    return this.executor.transaction(statements);
  }

  private async flush(): Promise<void> {
    const group = this.queue.splice(0, this.maxBatch);
    if (group.length === 0) return;
    this.stats.batches++;
    this.stats.submissions += group.length;
    try {
      const first = new Map<string, WriteStatement>();
      const last = new Map<string, WriteStatement>();
      for (const p of group) {
        for (const st of p.once.first ?? []) first.set(typeof st === "string" ? st : st.sql, st);
        for (const st of p.once.last ?? []) last.set(typeof st === "string" ? st : st.sql, st);
      }
      const results = await this.run([...first.values(), ...group.flatMap((p) => p.statements), ...last.values()]);
      let offset = first.size;
      for (const p of group) {
        p.resolve(results.slice(offset, offset + p.statements.length));
        offset += p.statements.length;
      }
    } catch (error) {
      if (group.length === 1) {
        group[0].reject(error);
        return;
      }
      for (const p of group) {
        try {
          const before = p.once.first ?? [];
          const results = await this.run([...before, ...p.statements, ...(p.once.last ?? [])]);
          p.resolve(results.slice(before.length, before.length + p.statements.length));
        } catch (e) {
          p.reject(e);
        }
      }
    }
  }

  /**
   * Truncates the WAL (the ballot mixer, services/votes/mixer.ts) where the executor can: on the
   * writer thread for a database file, so the event loop never waits on it. False otherwise.
   */
  async checkpoint(): Promise<boolean> {
    return (await this.executor.checkpoint?.()) ?? false;
  }

  /** Waits for everything queued so far to commit (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight > 0 || this.timer) {
      await new Promise((r) => setTimeout(r, this.maxDelayMs + 1));
    }
  }
}

// The main-thread side of the writer thread (writer-thread.ts).
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
  const w = new Worker(writerThreadUrl, { workerData: WRITER_THREAD });
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
  let closed = false;
  const send = (msg: ToWriter) => {
    // Refused, not opened again: work that outlives its app must not hold a connection no one will close.
    if (closed) throw new Error(`the database ${path} is closed`);
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
      closed = true;
    },
  };
}
