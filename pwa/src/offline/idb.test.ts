import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { evotingDb, type OutboxItem } from "./db";
import { database, liveQuery, type Table } from "./idb";
import { pendingVotes } from "./outbox";

interface Row {
  id: string;
  group: string;
  at: number;
}
type Rows = { rows: Table<Row, string>; other: Table<{ id: string }, string> };
const fresh = (indexedDB = new IDBFactory()) => database<Rows>("idb-test", 1, { rows: "id, group, at", other: "id" }, { indexedDB, IDBKeyRange });

/** Resolves on the first answer that passes `ok`. */
function answer<T>(source: { subscribe(o: { next(v: T): void }): { unsubscribe(): void } }, ok: (v: T) => boolean) {
  const seen: T[] = [];
  let sub: { unsubscribe(): void } | null = null;
  const found = new Promise<T>((resolve) => {
    sub = source.subscribe({
      next: (value) => {
        seen.push(value);
        if (ok(value)) resolve(value);
      },
    });
  });
  return { found, seen, stop: () => sub!.unsubscribe() };
}

describe("idb: tables", () => {
  it("reads by index, filters, sorts, deletes and updates like the Dexie calls it replaced", async () => {
    const db = fresh();
    for (const [id, group, at] of [["a", "g1", 3], ["b", "g2", 1], ["c", "g1", 2], ["d", "g1", 5]] as const) await db.rows.add({ id, group, at });
    expect((await db.rows.where("group").equals("g1").toArray()).map((r) => r.id)).toEqual(["a", "c", "d"]);
    expect(await db.rows.where("group").equals("g1").count()).toBe(3);
    expect((await db.rows.where("group").equals("g1").sortBy("at")).map((r) => r.id)).toEqual(["c", "a", "d"]);
    expect((await db.rows.where("group").equals("g1").reverse().sortBy("at")).map((r) => r.id)).toEqual(["d", "a", "c"]);
    expect((await db.rows.orderBy("at").toArray()).map((r) => r.id)).toEqual(["b", "c", "a", "d"]);
    expect((await db.rows.orderBy("id").toArray()).map((r) => r.id)).toEqual(["a", "b", "c", "d"]);
    expect(await db.rows.orderBy("group").uniqueKeys()).toEqual(["g1", "g2"]);
    expect(await db.rows.where("group").equals("g1").filter((r) => r.at > 2).delete()).toBe(2);
    expect((await db.rows.toArray()).map((r) => r.id)).toEqual(["b", "c"]);
    expect(await db.rows.update("b", { at: 9 })).toBe(1);
    expect(await db.rows.update("zz", { at: 9 })).toBe(0);
    expect(await db.rows.get("b")).toEqual({ id: "b", group: "g2", at: 9 });
    await expect(db.rows.add({ id: "b", group: "g3", at: 0 })).rejects.toMatchObject({ name: "ConstraintError" });
    expect(await db.rows.get("b")).toEqual({ id: "b", group: "g2", at: 9 });
    await expect(db.rows.where("nope").equals(1).toArray()).rejects.toThrow("rows has no index nope");
  });

  it("a transaction lands all of its writes or, when its work throws, none", async () => {
    const db = fresh();
    await db.transaction("rw", ["rows", "other"], async (tx) => {
      await tx.rows.put({ id: "a", group: "g", at: 1 });
      await tx.other.put({ id: "x" });
    });
    await expect(
      db.transaction("rw", ["rows", "other"], async (tx) => {
        await tx.rows.put({ id: "b", group: "g", at: 2 });
        await tx.rows.update("a", { at: 7 });
        await tx.other.add({ id: "x" }); // taken: ConstraintError
      }),
    ).rejects.toMatchObject({ name: "ConstraintError" });
    await expect(
      db.transaction("rw", ["rows"], async (tx) => {
        await tx.rows.delete("a");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await db.rows.toArray()).toEqual([{ id: "a", group: "g", at: 1 }]);
    expect(await db.other.count()).toBe(1);
  });
});

describe("idb: liveQuery", () => {
  it("answers again after a write to a table it reads, from this tab or another, and not after others", async () => {
    const indexedDB = new IDBFactory();
    const tabA = fresh(indexedDB);
    const tabB = fresh(indexedDB);
    const live = answer(
      liveQuery(tabA, ["rows"], () => tabA.rows.count()),
      () => true,
    );
    await expect(live.found).resolves.toBe(0);
    await tabA.rows.put({ id: "a", group: "g", at: 1 });
    await expect.poll(() => live.seen.at(-1)).toBe(1);
    await tabB.rows.put({ id: "b", group: "g", at: 1 }); // another tab, over the broadcast channel
    await expect.poll(() => live.seen.at(-1)).toBe(2);
    const answers = live.seen.length;
    await tabB.other.put({ id: "x" });
    await new Promise((r) => setTimeout(r, 50));
    expect(live.seen.length).toBe(answers);
    live.stop();
    await tabA.rows.put({ id: "c", group: "g", at: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(live.seen.length).toBe(answers);
  });

  it("does not hear a different IndexedDB's writes (another browser, or another test)", async () => {
    const mine = fresh();
    const theirs = fresh();
    const live = answer(liveQuery(mine, ["rows"], () => mine.rows.count()), () => true);
    await live.found;
    await theirs.rows.put({ id: "a", group: "g", at: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(live.seen).toEqual([0]);
    live.stop();
  });
});

describe("idb: a device whose data Dexie stored", () => {
  it("opens the database Dexie 4 created (version 10) unchanged and finds the queued vote in it", async () => {
    const indexedDB = new IDBFactory();
    // The stores exactly as Dexie 4.4 created them for `version(1)` (read back from Dexie itself).
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open("evoting", 10);
      req.onupgradeneeded = () => {
        const db = req.result;
        const cache = db.createObjectStore("cache", { keyPath: ["userId", "key"] });
        cache.createIndex("userId", "userId");
        const marks = db.createObjectStore("marks", { keyPath: ["userId", "positionId"] });
        marks.createIndex("userId", "userId");
        const outbox = db.createObjectStore("outbox", { keyPath: "id", autoIncrement: true });
        outbox.createIndex("[userId+positionId]", ["userId", "positionId"]);
        outbox.createIndex("key", "key", { unique: true });
        outbox.createIndex("userId", "userId");
        const outcomes = db.createObjectStore("outcomes", { keyPath: "key" });
        outcomes.createIndex("[userId+positionId]", ["userId", "positionId"]);
        outcomes.createIndex("settledAt", "settledAt");
        outcomes.createIndex("userId", "userId");
        const item: Omit<OutboxItem, "id"> = {
          userId: "u1",
          positionId: "p1",
          candidateId: "c1",
          candidateName: "Ada",
          key: "k1",
          status: "queued",
          attempts: 0,
          queuedAt: 1,
          nextAttemptAt: 0,
          serverHold: false,
          lastError: null,
          leaseOwner: null,
          leaseUntil: 0,
        };
        outbox.add(item);
      };
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
      req.onerror = () => reject(req.error);
    });

    const db = evotingDb("evoting", { indexedDB, IDBKeyRange });
    expect((await pendingVotes("u1", db)).map((i) => [i.id, i.key])).toEqual([[1, "k1"]]);
    expect(await db.outbox.where("[userId+positionId]").equals(["u1", "p1"]).count()).toBe(1);
    const opened = await db.open();
    expect(opened.version).toBe(10);
    expect([...opened.objectStoreNames]).toEqual(["cache", "marks", "outbox", "outcomes"]);
  });
});
