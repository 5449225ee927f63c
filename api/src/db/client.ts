/**
 * One libSQL client per process. On a `file:` URL every statement runs synchronously on the
 * event loop, so one connection (concurrency 1) is both enough and the only way PRAGMAs stick.
 * No interactive transaction ever runs on it: one would hold that single connection across
 * awaits, and every other request's read would fail (TRANSACTION_ACTIVE) until it closed.
 * Reads that must agree with each other are one `client.batch(reads, "read")` (a snapshot
 * taken within one call); writes go through the BatchWriter, see writer.ts.
 *
 * For a database file, the writer's transactions run in the writer thread (writer-thread.ts:
 * its own connection, prepared statements, the fsync off the event loop) and the hottest
 * reads (`get`) on a second, direct connection with prepared statements (direct.ts); with
 * any other URL (`:memory:`, remote) both go through the client as everything else does.
 */
import { createClient, type Client, type InValue } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { migrationsFolder } from "../paths.ts";
import * as schema from "./schema.ts";
import { DirectConnection, type Row } from "./direct.ts";
import { everywherePragmas, localPragmas } from "./pragmas.ts";
import { BatchWriter, clientExecutor, threadExecutor } from "./writer.ts";

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
   * database file). Plain positional args; rows are objects keyed by column name. Called only
   * by the named functions of hot-reads.ts (the lint rule in eslint.config.js says so).
   */
  get(sql: string, args?: InValue[]): Promise<Row | undefined>;
  close(): void;
}

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
  const local = url.startsWith("file:") || url === ":memory:";
  for (const pragma of local ? localPragmas({ synchronous, busyTimeoutMs: BUSY_TIMEOUT_MS }) : everywherePragmas) await client.execute(pragma);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });

  if (!filePath) {
    const writer = new BatchWriter(clientExecutor(client));
    return {
      client,
      db,
      writer,
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
