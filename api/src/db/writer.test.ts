/**
 * The group-commit writer behaves the same on both executors: prepared statements in the
 * writer thread (a database file) and `client.batch` (any other URL, here `:memory:`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "./client.ts";
import { DirectConnection } from "./direct.ts";
import { threadExecutor } from "./writer.ts";
import { commitOne, commitTogether } from "./writer-thread.ts";
import { BatchWriter, clientExecutor, type WriteExecutor } from "./writer.ts";

const kinds = [
  ["the writer thread (file:)", "file"],
  ["client.batch (:memory:)", "memory"],
] as const;

describe.each(kinds)("BatchWriter over %s", (_name, kind) => {
  let database: Database;
  let dir: string | null = null;

  async function open() {
    if (kind === "file") dir = mkdtempSync(join(tmpdir(), "evoting-writer-"));
    database = await openDatabase({ url: dir ? `file:${join(dir, "w.db")}` : ":memory:", synchronous: "NORMAL" });
    await database.client.execute("CREATE TABLE parent (id TEXT PRIMARY KEY)");
    await database.client.execute("CREATE TABLE child (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL REFERENCES parent(id))");
    await database.client.execute("CREATE TABLE counter (n INTEGER NOT NULL)");
    await database.client.execute("INSERT INTO counter (n) VALUES (0)");
    await database.client.execute("INSERT INTO parent (id) VALUES ('p')");
  }

  afterEach(async () => {
    await database.writer.drain();
    database.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it("reads and writes on a connection with the configured PRAGMAs", async () => {
    await open();
    await database.writer.submit([{ sql: "INSERT INTO parent (id) VALUES ('q')", args: [] }]);
    expect(await database.get("PRAGMA synchronous")).toMatchObject({ synchronous: 1 }); // NORMAL, as opened
    expect(await database.get("PRAGMA foreign_keys")).toMatchObject({ foreign_keys: 1 });
    expect(await database.get("PRAGMA busy_timeout")).toMatchObject({ timeout: 5000 });
    if (kind === "file") expect(await database.get("PRAGMA journal_mode")).toMatchObject({ journal_mode: "wal" });
  });

  it("commits many submissions together; each chains on changes() of its own statements", async () => {
    await open();
    const before = database.writer.stats.batches;
    const submit = (id: string) =>
      database.writer.submit(
        [
          { sql: "INSERT OR IGNORE INTO child (id, parent_id) VALUES (?, 'p')", args: [id] },
          { sql: "UPDATE counter SET n = n + 1 WHERE changes() = 1", args: [] },
        ],
        { last: ["UPDATE counter SET n = n + 1000"] },
      );
    // Five distinct ids and three repeats: a repeat inserts nothing and so counts nothing.
    const ids = ["a", "b", "c", "a", "d", "b", "e", "c"];
    const results = await Promise.all(ids.map(submit));
    expect(results.map((r) => r.map((x) => x.rowsAffected))).toEqual([
      [1, 1], [1, 1], [1, 1], [0, 0], [1, 1], [0, 0], [1, 1], [0, 0],
    ]);
    expect(database.writer.stats.batches - before).toBe(1);
    // The `once` statement ran once for the whole batch.
    expect((await database.get("SELECT n FROM counter"))?.n).toBe(1005);
  });

  it("runs a batch's once.first statements once before every submission's own, and once.last once after", async () => {
    await open();
    const submit = () =>
      database.writer.submit([{ sql: "UPDATE counter SET n = n + 1 RETURNING n", args: [] }], {
        first: [{ sql: "UPDATE counter SET n = 100", args: [] }],
        last: ["UPDATE counter SET n = n + 1000"],
      });
    const results = await Promise.all([submit(), submit(), submit()]);
    // Each submission gets its own statement's result: 101, 102, 103 (the reset ran once, first).
    expect(results.map((r) => r.map((x) => x.rows[0]?.n))).toEqual([[101], [102], [103]]);
    expect((await database.get("SELECT n FROM counter"))?.n).toBe(1103);
  });

  it("retries each submission alone when the combined transaction fails, and keeps nothing of the bad one", async () => {
    await open();
    const good = (id: string) => database.writer.submit([{ sql: "INSERT INTO child (id, parent_id) VALUES (?, 'p')", args: [id] }]);
    const bad = database.writer.submit([
      { sql: "INSERT INTO child (id, parent_id) VALUES ('orphan-ok', 'p')", args: [] },
      { sql: "INSERT INTO child (id, parent_id) VALUES ('orphan', 'nowhere')", args: [] }, // foreign key
    ]);
    const outcomes = await Promise.allSettled([good("x"), bad, good("y")]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const rows = await database.client.execute("SELECT id FROM child ORDER BY id");
    expect(rows.rows.map((r) => r.id)).toEqual(["x", "y"]);
    // The connection is usable afterwards (no transaction left open).
    await expect(good("z")).resolves.toHaveLength(1);
  });

  it("returns the rows of RETURNING statements and converts arguments as the client does", async () => {
    await open();
    await database.client.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, flag INTEGER, at INTEGER, data BLOB)");
    const [inserted] = await database.writer.submit([
      { sql: "INSERT INTO t (flag, at, data) VALUES (?, ?, ?) RETURNING id, flag, at", args: [true, new Date(1234), new Uint8Array([1, 2])] },
    ]);
    expect(inserted.rows[0]).toMatchObject({ id: 1, flag: 1, at: 1234 });
    const row = await database.get("SELECT length(data) AS len, flag FROM t WHERE id = ?", [1]);
    expect(row).toMatchObject({ len: 2, flag: 1 });
    expect(await database.get("SELECT id FROM t WHERE id = ?", [99])).toBeUndefined();
    // Values cross the thread as they are; undefined is refused, not stored as null.
    await database.writer.submit([{ sql: "INSERT INTO t (flag, at) VALUES (?, ?)", args: [false, 2 ** 53 - 1] }]);
    expect(await database.get("SELECT flag, at FROM t WHERE id = 2")).toMatchObject({ flag: 0, at: 2 ** 53 - 1 });
    await expect(database.writer.submit([{ sql: "INSERT INTO t (flag) VALUES (?)", args: [undefined as never] }])).rejects.toThrow();
    expect(await database.get("SELECT count(*) AS n FROM t")).toMatchObject({ n: 2 });
  });
});

describe("the writer thread", () => {
  it("keeps each database's writes apart and rejects a failed write with the driver's code", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evoting-writer-"));
    const a = await openDatabase({ url: `file:${join(dir, "a.db")}`, synchronous: "NORMAL" });
    const b = await openDatabase({ url: `file:${join(dir, "b.db")}`, synchronous: "NORMAL" });
    try {
      for (const d of [a, b]) await d.client.execute("CREATE TABLE t (id TEXT PRIMARY KEY)");
      await a.writer.submit([{ sql: "INSERT INTO t (id) VALUES ('x')", args: [] }]);
      await b.writer.submit([{ sql: "INSERT INTO t (id) VALUES ('y')", args: [] }]);
      const error = await a.writer.submit([{ sql: "INSERT INTO t (id) VALUES ('x')", args: [] }]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
      // Each write went to its own database.
      expect((await a.client.execute("SELECT group_concat(id) AS ids FROM t")).rows[0].ids).toBe("x");
      expect((await b.client.execute("SELECT group_concat(id) AS ids FROM t")).rows[0].ids).toBe("y");
    } finally {
      a.close();
      b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a closed database's writer", () => {
  it("refuses a write submitted after the close instead of opening the file again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evoting-writer-"));
    const url = `file:${join(dir, "c.db")}`;
    const database = await openDatabase({ url, synchronous: "NORMAL" });
    try {
      await database.client.execute("CREATE TABLE t (id TEXT PRIMARY KEY)");
      await database.writer.submit([{ sql: "INSERT INTO t (id) VALUES ('before')", args: [] }]);
      await database.writer.drain();
      database.close();
      await expect(database.writer.submit([{ sql: "INSERT INTO t (id) VALUES ('after')", args: [] }])).rejects.toThrow(/is closed/);
      const again = await openDatabase({ url, synchronous: "NORMAL" });
      try {
        expect((await again.client.execute("SELECT group_concat(id) AS ids FROM t")).rows[0].ids).toBe("before");
      } finally {
        again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("group commit of queued transactions", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const fresh = () => {
    dir = mkdtempSync(join(tmpdir(), "evoting-group-"));
    const c = new DirectConnection(join(dir, "g.db"), { synchronous: "NORMAL", busyTimeoutMs: 1000 });
    commitOne(c, ["CREATE TABLE t (id TEXT PRIMARY KEY)"]);
    return c;
  };
  const ids = (c: DirectConnection) => c.get("SELECT group_concat(id, ',') AS ids FROM (SELECT id FROM t ORDER BY id)")?.ids;
  const insert = (id: string) => [{ sql: "INSERT INTO t (id) VALUES (?)", args: [id] }];

  it("commits units together, each all-or-nothing: a failing unit is rolled back and answered alone", () => {
    const c = fresh();
    const out = commitTogether(c, [
      insert("a"),
      [...insert("b"), ...insert("a")], // b, then a duplicate: the whole unit goes
      ["INSERT INTO no_such_table VALUES (1)"],
      insert("c"),
    ]);
    expect(out.map((o) => ("error" in o ? "error" : o.results.map((r) => r.rowsAffected).join()))).toEqual(["1", "error", "error", "1"]);
    expect((out[1] as { error: { code?: string } }).error.code).toMatch(/^SQLITE_CONSTRAINT/);
    expect(ids(c)).toBe("a,c");
    commitOne(c, [{ sql: "INSERT INTO t (id) VALUES ('d')", args: [] }]); // nothing left open
    expect(ids(c)).toBe("a,c,d");
    c.close();
  });

  it("fails every unit of a transaction that an error ended, and commits the units after it", () => {
    const c = fresh();
    // A unit that ends the whole transaction takes the units before it (never committed) with it.
    const out = commitTogether(c, [insert("a"), ["ROLLBACK"], insert("b")]);
    expect(out.map((o) => "error" in o)).toEqual([true, true, false]);
    expect(ids(c)).toBe("b");
    c.close();
  });

  it("answers each of many transactions sent to the writer thread at once with its own outcome", async () => {
    dir = mkdtempSync(join(tmpdir(), "evoting-group-"));
    const database = await openDatabase({ url: `file:${join(dir, "g.db")}`, synchronous: "NORMAL" });
    try {
      await database.client.execute("CREATE TABLE t (id TEXT PRIMARY KEY)");
      const executor = threadExecutor(join(dir, "g.db"), { synchronous: "NORMAL", busyTimeoutMs: 1000 });
      // Sent in one tick: the thread finds them queued together.
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) => executor.transaction([{ sql: "INSERT INTO t (id) VALUES (?)", args: [i % 10 === 9 ? "dup" : `r${i}`] }])),
      );
      // The first 'dup' commits; the later two fail alone.
      expect(outcomes.filter((o) => o.status === "rejected")).toHaveLength(2);
      expect((await database.get("SELECT count(*) AS n FROM t"))?.n).toBe(28);
      executor.close();
    } finally {
      database.close();
    }
  });

  it("hands the writer thread a batch while one is still committing, and a one-at-a-time executor only after", async () => {
    for (const groupsQueued of [true, false]) {
      const database = await openDatabase({ url: ":memory:", synchronous: "NORMAL" });
      await database.client.execute("CREATE TABLE t (id TEXT PRIMARY KEY)");
      const inner = clientExecutor(database.client);
      let active = 0;
      let most = 0;
      // Every transaction is held until the test lets the first one commit.
      let commit!: () => void;
      const committing = new Promise<void>((resolve) => (commit = resolve));
      const slow: WriteExecutor = {
        groupsQueued,
        async transaction(statements) {
          most = Math.max(most, ++active);
          await committing;
          try {
            return await inner.transaction(statements);
          } finally {
            active--;
          }
        },
      };
      // The writer's batching delay on a clock the test moves: each wait is a step, not a sleep.
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        const writer = new BatchWriter(slow, { maxDelayMs: 2 });
        const first = writer.submit([{ sql: "INSERT INTO t (id) VALUES ('a')", args: [] }]);
        await vi.advanceTimersByTimeAsync(2);
        expect(active).toBe(1);
        const second = writer.submit([{ sql: "INSERT INTO t (id) VALUES ('b')", args: [] }]);
        // Long past the delay with the first still committing: only a thread that groups what
        // queued has the second batch by now.
        await vi.advanceTimersByTimeAsync(1_000);
        expect(active).toBe(groupsQueued ? 2 : 1);
        commit();
        await vi.runAllTimersAsync();
        await Promise.all([first, second]);
      } finally {
        vi.useRealTimers();
      }
      expect(most).toBe(groupsQueued ? 2 : 1);
      expect((await database.get("SELECT count(*) AS n FROM t"))?.n).toBe(2);
      database.close();
    }
    dir = mkdtempSync(join(tmpdir(), "evoting-group-")); // for afterEach
  });
});
