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
 * thread (thread-executor.ts: prepared statements, the fsync off the event loop); elsewhere,
 * `client.batch(..., "write")`. Either way a caller is answered only after the commit.
 */
import type { Client, InStatement, InValue } from "@libsql/client";
import type { WriteResult } from "./direct.ts";

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

/** Calls each listener; one that throws cannot fail a write that has already committed. */
export function notifyAll(listeners: ((statements: WriteStatement[]) => void)[], statements: WriteStatement[]): void {
  for (const listener of listeners) {
    try {
      listener(statements);
    } catch (error) {
      console.error("A commit listener failed", error);
    }
  }
}

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
  private readonly committed: ((statements: WriteStatement[]) => void)[] = [];

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

  /**
   * `listener` sees the statements of every commit before their callers are answered, so a
   * cache that depends on them (sessions.ts) is corrected before anyone acts on the write.
   */
  onCommit(listener: (statements: WriteStatement[]) => void): void {
    this.committed.push(listener);
  }

  private async run(statements: WriteStatement[]): Promise<WriteResult[]> {
    const results = await this.executor.transaction(statements);
    notifyAll(this.committed, statements);
    return results;
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
