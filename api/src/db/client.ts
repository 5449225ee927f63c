/**
 * One libSQL client per process. On a `file:` URL every statement runs synchronously on the
 * event loop, so one connection (concurrency 1) is both enough and the only way PRAGMAs stick.
 * Interactive transactions are avoided on purpose (they hand the connection away and block
 * writers); multi-statement writes go through the BatchWriter, see writer.ts.
 *
 * For a database file, the writer's transactions run in the writer thread (writer-thread.ts:
 * its own connection, prepared statements, the fsync off the event loop) and the hottest
 * reads (`get`) on a second, direct connection with prepared statements (direct.ts); with
 * any other URL (`:memory:`, remote) both go through the client as everything else does.
 */
import { createClient, type Client, type InArgs, type InStatement, type InValue, type ResultSet } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as schema from "./schema.ts";
import { DirectConnection, type Row } from "./direct.ts";
import { threadExecutor } from "./thread-executor.ts";
import { BatchWriter, clientExecutor, notifyAll, type WriteStatement } from "./writer.ts";

// drizzle() also hands back the client it wraps, for the few hot paths that use raw SQL.
export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

export interface Database {
  client: Client;
  db: Db;
  writer: BatchWriter;
  url: string;
  /** Path of the database file for `file:` URLs, null otherwise. */
  filePath: string | null;
  /**
   * First row of a read on a hot path (a prepared statement on the direct connection for a
   * database file). Plain positional args; rows are objects keyed by column name.
   */
  get(sql: string, args?: InValue[]): Promise<Row | undefined>;
  /**
   * `listener` sees the statements of every write once it has committed, through the writer
   * (before its callers are answered) or the client; reads through the client pass too.
   * For in-process caches of what such writes change (sessions.ts).
   */
  onWrite(listener: (statements: WriteStatement[]) => void): void;
  close(): void;
}

/** Calls `listeners` after each execute/batch through the client (drizzle included) has run. */
function observeClient(client: Client, listeners: ((statements: WriteStatement[]) => void)[]): void {
  const execute = client.execute.bind(client) as (stmtOrSql: InStatement, args?: InArgs) => Promise<ResultSet>;
  const batch = client.batch.bind(client);
  client.execute = (async (stmtOrSql: InStatement, args?: InArgs) => {
    const result = await execute(stmtOrSql, args);
    notifyAll(listeners, [stmtOrSql]);
    return result;
  }) as Client["execute"];
  client.batch = (async (statements, mode) => {
    const result = await batch(statements, mode);
    notifyAll(listeners, statements as InStatement[]);
    return result;
  }) as Client["batch"];
}

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), "../../drizzle");

export function databaseFilePath(url: string): string | null {
  if (url === ":memory:" || url === "file::memory:") return null;
  if (!url.startsWith("file:")) return null;
  return resolve(url.slice("file:".length).split("?")[0]);
}

export interface OpenOptions {
  url: string;
  authToken?: string;
  synchronous?: "FULL" | "NORMAL";
}

const BUSY_TIMEOUT_MS = 5000;

export async function openDatabase({ url, authToken, synchronous = "FULL" }: OpenOptions): Promise<Database> {
  const filePath = databaseFilePath(url);
  if (filePath) mkdirSync(dirname(filePath), { recursive: true });
  const client = createClient({ url, authToken, concurrency: 1 });
  if (url.startsWith("file:") || url === ":memory:") {
    // WAL: readers never block the writer and commits cost one fsync, not two.
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute(`PRAGMA synchronous = ${synchronous}`);
    await client.execute(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Deleted rows (pending ballots, expired keys) are zeroed, not left in free space (issue 9).
    await client.execute("PRAGMA secure_delete = ON");
  }
  // Temporary tables (the mixer's batch, services/votes/mixer.ts) in memory, never in a file.
  await client.execute("PRAGMA temp_store = MEMORY");
  await client.execute("PRAGMA foreign_keys = ON");
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  const writeListeners: ((statements: WriteStatement[]) => void)[] = [];
  observeClient(client, writeListeners);
  const onWrite = (writer: BatchWriter | null) => (listener: (statements: WriteStatement[]) => void) => {
    writeListeners.push(listener);
    writer?.onCommit(listener);
  };

  if (!filePath) {
    const writer = new BatchWriter(clientExecutor(client));
    return {
      client,
      db,
      writer,
      onWrite: onWrite(null), // its writer commits through client.batch, observed already
      url,
      filePath,
      get: async (sql, args = []) => (await client.execute({ sql, args })).rows[0],
      close: () => client.close(),
    };
  }
  // Both opened on first use, after the migrations: a script that only reads through the
  // client (a backup switching its copy out of WAL, say) never has another connection open.
  let direct: DirectConnection | null = null;
  const connect = () => (direct ??= new DirectConnection(filePath, { synchronous, busyTimeoutMs: BUSY_TIMEOUT_MS }));
  const executor = threadExecutor(filePath, { synchronous, busyTimeoutMs: BUSY_TIMEOUT_MS });
  const writer = new BatchWriter(executor);
  return {
    client,
    db,
    writer,
    onWrite: onWrite(writer),
    url,
    filePath,
    get: async (sql, args = []) => connect().get(sql, args),
    close: () => {
      executor.close();
      direct?.close();
      direct = null;
      client.close();
    },
  };
}

/**
 * One `T` per open database, made on first use (the in-memory caches of services/: sessions,
 * ballot rules, receipt lists): a test's fresh database never sees another's.
 */
export function perDatabase<T>(create: (database: Database) => T): (database: Database) => T {
  const made = new WeakMap<Database, T>();
  return (database) => {
    let value = made.get(database);
    if (value === undefined) made.set(database, (value = create(database)));
    return value;
  };
}
