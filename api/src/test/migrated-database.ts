/**
 * The node project's global setup (vitest.config.ts): runs every migration once on a fresh
 * database file and keeps a copy, so each test app starts from that copy (test/harness.ts)
 * instead of running the whole migration history again. `openDatabase` still runs `migrate`
 * on the copy, which finds every migration applied; a migration that fails fails here, first.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A freshly migrated database file to copy, when the global setup made one. */
    migratedDatabase?: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "evoting-migrated-"));
  const copy = join(dir, "migrated.db");
  const database = await openDatabase({ url: `file:${join(dir, "fresh.db")}`, synchronous: "NORMAL" });
  try {
    // One self-contained file, whatever the WAL of the database it was made from still holds.
    await database.client.execute({ sql: "VACUUM INTO ?", args: [copy] });
  } finally {
    database.close();
  }
  project.provide("migratedDatabase", copy);
  return () => rmSync(dir, { recursive: true, force: true });
}
