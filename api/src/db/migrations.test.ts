/**
 * The migration chain and the schema agree: the newest snapshot in api/drizzle/meta (what
 * `npm run db:generate` diffs schema.ts against) describes exactly the tables, columns,
 * indexes, foreign keys and checks that running every migration creates. A hand-written
 * migration that the snapshot does not know about fails here, before drizzle-kit would write
 * a migration that undoes it. (That schema.ts matches the snapshot is `npm run db:check`.)
 */
import { createClient, type Client } from "@libsql/client";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client.ts";

interface Snapshot {
  tables: Record<
    string,
    {
      columns: Record<string, { name: string; type: string; primaryKey: boolean; notNull: boolean; default?: string | number }>;
      indexes: Record<string, { name: string; columns: string[]; isUnique: boolean; where?: string }>;
      foreignKeys: Record<string, { tableTo: string; columnsFrom: string[]; columnsTo: string[]; onDelete: string; onUpdate: string }>;
      compositePrimaryKeys: Record<string, { columns: string[] }>;
      checkConstraints: Record<string, { value: string }>;
    }
  >;
}

const drizzleDir = new URL("../../drizzle/", import.meta.url);
const journal = JSON.parse(readFileSync(new URL("meta/_journal.json", drizzleDir), "utf8")) as { entries: { idx: number; tag: string }[] };
const newest = journal.entries.at(-1)!;
const CACHE_TRIGGERS = [
  "auth_version_session_update",
  "auth_version_session_delete",
  "auth_version_user_update",
  "auth_version_user_delete",
  "catalog_version_position_insert",
  "catalog_version_position_update",
  "catalog_version_position_delete",
  "catalog_version_candidate_insert",
  "catalog_version_candidate_update",
  "catalog_version_candidate_delete",
];

let dir: string;
let client: Client;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "evoting-migrations-"));
  const database = await openDatabase({ url: `file:${join(dir, "chain.db")}`, synchronous: "NORMAL" });
  database.close();
  client = createClient({ url: `file:${join(dir, "chain.db")}` });
});
afterAll(() => {
  client.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = async (sql: string) => (await client.execute(sql)).rows as unknown as Record<string, string | number | null>[];
const bare = (sql: string) => sql.replace(/[`"]/g, "").replace(/\s+/g, " ");

describe("the migration chain", () => {
  it("ends at a migration that has a snapshot (made by drizzle-kit generate, not by hand)", () => {
    const tag = newest.tag.slice(0, 4);
    expect(() => readFileSync(new URL(`meta/${tag}_snapshot.json`, drizzleDir))).not.toThrow();
  });

  it("creates exactly what the newest snapshot describes", async () => {
    const snapshot = JSON.parse(readFileSync(new URL(`meta/${newest.tag.slice(0, 4)}_snapshot.json`, drizzleDir), "utf8")) as Snapshot;
    const tables = await rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations' ORDER BY name");
    expect(tables.map((t) => t.name)).toEqual(Object.keys(snapshot.tables).sort());

    for (const { name, sql } of tables) {
      const table = snapshot.tables[String(name)];
      const where = `table ${name}`;

      const columns = await rows(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info('${name}') ORDER BY cid`);
      const composite = Object.values(table.compositePrimaryKeys)[0]?.columns ?? [];
      expect(columns.map((c) => c.name), where).toEqual(Object.keys(table.columns));
      for (const c of columns) {
        const want = table.columns[String(c.name)];
        expect(
          { type: String(c.type).toLowerCase(), notNull: c.notnull === 1, default: c.dflt_value === null ? undefined : String(c.dflt_value), pk: Number(c.pk) > 0 },
          `${where} column ${c.name}`,
        ).toEqual({
          type: want.type,
          notNull: want.notNull || want.primaryKey,
          default: want.default === undefined ? undefined : String(want.default),
          pk: want.primaryKey || composite.includes(want.name),
        });
      }

      const indexes = await rows(`SELECT name, "unique", partial FROM pragma_index_list('${name}') WHERE origin = 'c' ORDER BY name`);
      const described = [];
      for (const i of indexes) {
        const cols = await rows(`SELECT name FROM pragma_index_info('${i.name}') ORDER BY seqno`);
        described.push({ name: i.name, columns: cols.map((c) => c.name), isUnique: i.unique === 1, partial: i.partial === 1 });
      }
      expect(described, where).toEqual(
        Object.values(table.indexes)
          .map((i) => ({ name: i.name, columns: i.columns, isUnique: i.isUnique, partial: i.where !== undefined }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      );

      const keys = await rows(`SELECT "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list('${name}') ORDER BY "from"`);
      expect(
        keys.map((k) => [k.from, k.table, k.to, String(k.on_delete).toLowerCase(), String(k.on_update).toLowerCase()]),
        where,
      ).toEqual(
        Object.values(table.foreignKeys)
          .map((k) => [k.columnsFrom[0], k.tableTo, k.columnsTo[0], k.onDelete, k.onUpdate])
          .sort((a, b) => a[0].localeCompare(b[0])),
      );

      const checks = Object.values(table.checkConstraints).map((c) => bare(c.value));
      expect(bare(String(sql)).match(/CHECK/g)?.length ?? 0, where).toBe(checks.length);
      for (const check of checks) expect(bare(String(sql)), where).toContain(check);
    }
  });

  it("creates the triggers that keep the cache counters and guard the audit log", async () => {
    const triggers = (await rows("SELECT name FROM sqlite_master WHERE type = 'trigger'")).map((t) => t.name);
    expect(triggers.sort()).toEqual([...CACHE_TRIGGERS, "audit_log_no_delete", "audit_log_no_update", "idempotency_keys_refused_cap"].sort());
  });
});
