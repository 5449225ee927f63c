/**
 * One libSQL client per process. On a `file:` URL every statement runs synchronously on the
 * event loop, so one connection (concurrency 1) is both enough and the only way PRAGMAs stick.
 * Interactive transactions are avoided on purpose (they hand the connection away and block
 * writers); multi-statement writes go through `batch(..., "write")`, see writer.ts.
 */
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as schema from "./schema.ts";
import { BatchWriter } from "./writer.ts";

// drizzle() also hands back the client it wraps, for the few hot paths that use raw SQL.
export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

export interface Database {
  client: Client;
  db: Db;
  writer: BatchWriter;
  url: string;
  /** Path of the database file for `file:` URLs, null otherwise. */
  filePath: string | null;
  close(): void;
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

export async function openDatabase({ url, authToken, synchronous = "FULL" }: OpenOptions): Promise<Database> {
  const filePath = databaseFilePath(url);
  if (filePath) mkdirSync(dirname(filePath), { recursive: true });
  const client = createClient({ url, authToken, concurrency: 1 });
  if (url.startsWith("file:") || url === ":memory:") {
    // WAL: readers never block the writer and commits cost one fsync, not two.
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute(`PRAGMA synchronous = ${synchronous}`);
    await client.execute("PRAGMA busy_timeout = 5000");
  }
  await client.execute("PRAGMA foreign_keys = ON");
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return {
    client,
    db,
    writer: new BatchWriter(client),
    url,
    filePath,
    close: () => client.close(),
  };
}
