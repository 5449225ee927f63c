/**
 * A direct connection to a `file:` database through the `libsql` driver that @libsql/client
 * wraps, with prepared statements kept per SQL text. @libsql/client prepares every statement
 * again on each call (and probes it with a throwing `raw()`), a large share of a vote's CPU
 * (decision 0016 has the figure). This connection serves the hottest reads on the event loop and, in the
 * writer thread, the statements of every write transaction (writer-thread.ts opens and
 * commits them); drizzle and the client keep serving everything else, on their own connection.
 *
 * Everything here is synchronous, so a transaction is never held across an await.
 */
import Libsql from "libsql";
import type { InArgs, InStatement, InValue } from "@libsql/client";
import { localPragmas, type ConnectionSettings } from "./pragmas.ts";

export type Row = Record<string, unknown>;

/** What a write returns, as the client's ResultSet does for the fields callers read. */
export interface WriteResult {
  rowsAffected: number;
  rows: Row[];
}

interface Prepared {
  stmt: Libsql.Statement;
  /** Returns rows (SELECT, RETURNING): run with `all`, else with `run`. */
  reader: boolean;
}

const MAX_CACHED = 256;

/** The client's own conversions (valueToSql), for the few types the driver takes differently. */
function toSql(value: InValue | undefined): unknown {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
      return value;
    case "boolean":
      return value ? 1 : 0;
    case "undefined":
      throw new TypeError("undefined cannot be passed as argument to the database");
    default:
      if (value instanceof ArrayBuffer) return Buffer.from(value);
      if (value instanceof Date) return value.valueOf();
      return value;
  }
}

function toArgs(args: InArgs | undefined): unknown[] | Record<string, unknown> {
  if (!args) return [];
  if (Array.isArray(args)) {
    const out = new Array<unknown>(args.length);
    for (let i = 0; i < args.length; i++) out[i] = toSql(args[i]);
    return out;
  }
  const named: Record<string, unknown> = {};
  for (const name in args) {
    named[name[0] === "@" || name[0] === "$" || name[0] === ":" ? name.substring(1) : name] = toSql(args[name]);
  }
  return named;
}

export class DirectConnection {
  private readonly db: Libsql.Database;
  private readonly cache = new Map<string, Prepared>();

  constructor(path: string, settings: ConnectionSettings) {
    this.db = new Libsql(path);
    for (const pragma of localPragmas(settings)) this.db.exec(pragma);
  }

  private prepared(sql: string): Prepared {
    let p = this.cache.get(sql);
    if (!p) {
      const stmt = this.db.prepare(sql);
      p = { stmt, reader: stmt.reader };
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(sql, p);
    }
    return p;
  }

  /** First row of a read, or undefined. */
  get(sql: string, args: InValue[] = []): Row | undefined {
    // An array as the single argument is bound positionally as is (no copy, no flattening).
    return this.prepared(sql).stmt.get(args.length === 0 ? [] : toArgs(args)) as Row | undefined;
  }

  /** One statement: its rows when it returns rows (SELECT, RETURNING), else its count of changes. */
  execute(st: InStatement): WriteResult {
    const { sql, args } = typeof st === "string" ? { sql: st, args: undefined } : st;
    const p = this.prepared(sql);
    const bound = toArgs(args);
    if (p.reader) {
      // As the client reports it for statements that return rows (RETURNING): rows, no count.
      return { rowsAffected: 0, rows: p.stmt.all(bound) as Row[] };
    }
    return { rowsAffected: p.stmt.run(bound).changes, rows: [] };
  }

  executeAll(statements: InStatement[]): WriteResult[] {
    const results = new Array<WriteResult>(statements.length);
    for (let i = 0; i < statements.length; i++) results[i] = this.execute(statements[i]);
    return results;
  }

  /** A statement without arguments (BEGIN, COMMIT, SAVEPOINT…), prepared once. */
  run(sql: string): void {
    this.prepared(sql).stmt.run([]);
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  /** Rolls back what is still open: some errors end the transaction on their own. */
  rollback(): void {
    if (!this.db.inTransaction) return;
    try {
      this.db.exec("ROLLBACK");
    } catch {
      // nothing left to roll back
    }
  }

  /**
   * Copies the WAL into the database and truncates the WAL file to zero bytes (the ballot
   * mixer). False when a reader still needs old frames (busy): try again later.
   */
  checkpoint(): boolean {
    const row = this.db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get([]) as Row | undefined;
    return Number(row?.busy ?? 1) === 0;
  }

  close(): void {
    this.cache.clear();
    if (this.db.open) this.db.close();
  }
}
