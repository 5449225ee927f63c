/**
 * Another API process on a test app's database file: its own connections and caches, as a
 * second server would have. Closed after each test.
 */
import { afterEach } from "vitest";
import { openDatabase, type Database } from "../db/client.ts";
import type { TestApp } from "./harness.ts";

export function secondProcesses(): (t: TestApp) => Promise<Database> {
  const opened: Database[] = [];
  afterEach(async () => {
    for (const database of opened.splice(0)) {
      await database.writer.drain();
      database.close();
    }
  });
  return async (t) => {
    const database = await openDatabase({ url: `file:${t.database.filePath}`, synchronous: "NORMAL" });
    opened.push(database);
    return database;
  };
}
