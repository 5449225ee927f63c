/**
 * A direct connection to a `file:` database through the `libsql` driver that @libsql/client
 * wraps, with prepared statements kept per SQL text. @libsql/client prepares every statement
 * again on each call (and probes it with a throwing `raw()`), which was about half of the CPU
 * of a vote (bench/). This connection serves the BatchWriter's transactions and the hottest
 * reads; drizzle and the client keep serving everything else, on their own connection.
 *
 * Everything here is synchronous: a transaction is opened and closed within one call, so it
 * is never held across an await and other connections are never left waiting on it.
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

  private execute(st: InStatement): WriteResult {
    const { sql, args } = typeof st === "string" ? { sql: st, args: undefined } : st;
    const p = this.prepared(sql);
    const bound = toArgs(args);
    if (p.reader) {
      // As the client reports it for statements that return rows (RETURNING): rows, no count.
      return { rowsAffected: 0, rows: p.stmt.all(bound) as Row[] };
    }
    return { rowsAffected: p.stmt.run(bound).changes, rows: [] };
  }

  private executeAll(statements: InStatement[]): WriteResult[] {
    const results = new Array<WriteResult>(statements.length);
    for (let i = 0; i < statements.length; i++) results[i] = this.execute(statements[i]);
    return results;
  }

  private run(sql: string): void {
    this.prepared(sql).stmt.run([]);
  }

  /** Rolls back what is still open: some errors end the transaction on their own. */
  private rollback(): void {
    if (!this.db.inTransaction) return;
    try {
      this.db.exec("ROLLBACK");
    } catch {
      // nothing left to roll back
    }
  }

  /** All statements in one write transaction (BEGIN IMMEDIATE): all committed or none. */
  transaction(statements: InStatement[]): WriteResult[] {
    this.run("BEGIN IMMEDIATE");
    try {
      const results = this.executeAll(statements);
      this.run("COMMIT");
      return results;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  /**
   * Several transactions in ONE commit (one fsync): each runs inside its own savepoint, so
   * each is still all-or-nothing. One that fails is rolled back to its savepoint and answered
   * with its error alone; the others commit together. When an
   * error ends the whole transaction (the disk, say), or the COMMIT fails, every unit it held
   * gets that error: none of them was committed.
   */
  transactions(units: InStatement[][]): ({ results: WriteResult[] } | { error: unknown })[] {
    if (units.length === 1) {
      try {
        return [{ results: this.transaction(units[0]) }];
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
          this.run("BEGIN IMMEDIATE");
          first = k;
        }
      } catch (error) {
        out[k] = { error };
        continue;
      }
      try {
        this.run("SAVEPOINT unit");
        const results = this.executeAll(units[k]);
        this.run("RELEASE unit");
        out[k] = { results };
      } catch (error) {
        out[k] = { error };
        try {
          if (this.db.inTransaction) {
            this.run("ROLLBACK TO unit");
            this.run("RELEASE unit");
          }
        } catch {
          this.rollback();
        }
        if (!this.db.inTransaction) failOpen(k, error);
      }
    }
    if (first >= 0) {
      try {
        this.run("COMMIT");
      } catch (error) {
        this.rollback();
        failOpen(units.length, error);
      }
    }
    return out;
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
