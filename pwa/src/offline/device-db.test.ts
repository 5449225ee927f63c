import { appHttpOver } from "./test-support";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { EvotingDB, evotingDb, type OutboxItem } from "./db";
import { closeWhileHidden, StoreUnavailableError, withinTime, type IndexedDbFactory } from "./device-db";
import { installOffline } from "./install";
import { pendingVotes } from "./outbox";

const queued = (key: string, positionId = "p1"): Omit<OutboxItem, "id"> => ({
  userId: "u1",
  positionId,
  candidateId: "c1",
  candidateName: "Ada",
  key,
  status: "queued",
  attempts: 0,
  queuedAt: 1,
  nextAttemptAt: 0,
  serverHold: false,
  lastError: null,
  leaseOwner: null,
  leaseUntil: 0,
});

const privateIndexedDb = (): IndexedDbFactory & { indexedDB: IDBFactory } => ({ indexedDB: new IDBFactory(), IDBKeyRange });

/** A raw connection, as another tab running an older release holds it: it never closes by itself. */
function rawOpen(factory: IDBFactory, name: string, version: number, upgrade?: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(name, version);
    req.onupgradeneeded = () => upgrade?.(req.result);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** The next release's schema: version 2 reshapes every queued vote (here: a new field). */
class NextRelease extends EvotingDB {
  constructor(name: string, factory: IndexedDbFactory) {
    super(name, factory);
    this.version(2)
      .stores({})
      .upgrade((tx) =>
        tx
          .table("outbox")
          .toCollection()
          .modify((item: OutboxItem & { source?: string }) => {
            item.source = "phone";
          }),
      );
  }
}

describe("the device database (Dexie)", () => {
  it("opens the layout every release has stored (IndexedDB version 10) unchanged and finds the queued vote", async () => {
    const factory = privateIndexedDb();
    // The stores exactly as Dexie 4.4 created them for `version(1)`, which the app's own
    // IndexedDB layer kept while it stood in for Dexie.
    const raw = await rawOpen(factory.indexedDB, "evoting", 10, (db) => {
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
      outbox.add(queued("k1"));
    });
    raw.close();

    const db = evotingDb("evoting", factory);
    expect((await pendingVotes("u1", db)).map((i) => [i.id, i.key])).toEqual([[1, "k1"]]);
    expect(await db.outbox.where("[userId+positionId]").equals(["u1", "p1"]).count()).toBe(1);
    expect(db.verno).toBe(1);
    expect(db.backendDB().version).toBe(10);
    expect([...db.backendDB().objectStoreNames]).toEqual(["cache", "marks", "outbox", "outcomes"]);
    db.close();
  });

  it("a caught error inside a transaction loses none of the transaction's other writes", async () => {
    const db = evotingDb("evoting", privateIndexedDb());
    let refused: unknown = null;
    await db.transaction("rw", db.outbox, db.marks, async () => {
      await db.outbox.add(queued("k1"));
      try {
        await db.outbox.add(queued("k1", "p2")); // the same idempotency key: a unique index refuses it
      } catch (error) {
        refused = error;
      }
      await db.marks.put({ userId: "u1", positionId: "p1", state: "queued", candidateId: "c1", candidateName: "Ada", key: "k1", message: null, updatedAt: 1 });
    });
    expect((refused as Error | null)?.name).toBe("ConstraintError");
    expect((await db.outbox.toArray()).map((i) => i.key)).toEqual(["k1"]);
    expect(await db.marks.count()).toBe(1);
    db.close();
  });

  it("an upgrade while another tab of this app is open: that tab steps aside and the data is reshaped", async () => {
    const factory = privateIndexedDb();
    const oldTab = evotingDb("evoting", factory);
    await oldTab.outbox.add(queued("k1"));
    const next = new NextRelease("evoting", factory);
    expect(((await next.outbox.toArray())[0] as OutboxItem & { source?: string }).source).toBe("phone");
    expect(oldTab.isOpen()).toBe(false);
    next.close();
  });

  it("an upgrade blocked by a connection that never closes: the open's time limit says so, and the open completes once it closes", async () => {
    const factory = privateIndexedDb();
    const seed = evotingDb("evoting", factory);
    await seed.outbox.add(queued("k1"));
    seed.close();
    const stubborn = await rawOpen(factory.indexedDB, "evoting", 10);
    const next = new NextRelease("evoting", factory);
    const opening = next.open();
    await expect(withinTime(opening, 200, "open")).rejects.toBeInstanceOf(StoreUnavailableError);
    stubborn.close();
    await opening;
    expect(((await next.outbox.toArray())[0] as OutboxItem & { source?: string }).source).toBe("phone");
    next.close();
  });

  it("a vote waits for a blocked store only up to its limit, then says the store is unavailable", async () => {
    const factory = privateIndexedDb();
    const seed = evotingDb("evoting", factory);
    await seed.open();
    seed.close();
    const db = evotingDb("evoting", factory);
    // Another tab asked for a newer version, and an older one holds the current version open:
    // every later open of the database waits behind that upgrade.
    const stubborn = await rawOpen(factory.indexedDB, "evoting", 10);
    const upgrade = rawOpen(factory.indexedDB, "evoting", 20);
    const runtime = installOffline({ http: appHttpOver(() => Promise.reject(new TypeError("offline")), "t"), db, getToken: () => "t", getUserId: () => "u1", eventTarget: null, locks: null });
    const started = Date.now();
    const cast = runtime.queueVote({ userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada" }, { key: "k1", storeLimitMs: 300 });
    await expect(cast).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(cast).rejects.toThrow("Opening the device store: no answer within 300 ms");
    expect(Date.now() - started).toBeLessThan(2_000);
    stubborn.close();
    (await upgrade).close();
    await runtime.uninstall();
  });

  it("closes on pagehide (WebKit's back/forward cache) and opens again on pageshow; a read in between opens it too", async () => {
    const db = evotingDb("evoting", privateIndexedDb());
    const page = new EventTarget();
    const stop = closeWhileHidden(db, page as unknown as Window);
    await db.open();
    page.dispatchEvent(new Event("pagehide"));
    expect(db.isOpen()).toBe(false);
    expect(await db.outbox.count()).toBe(0);
    expect(db.isOpen()).toBe(true);
    page.dispatchEvent(new Event("pagehide"));
    page.dispatchEvent(new Event("pageshow"));
    await expect.poll(() => db.isOpen()).toBe(true);
    stop();
    page.dispatchEvent(new Event("pagehide"));
    expect(db.isOpen()).toBe(true);
    db.close();
  });

  it("going into the back/forward cache aborts what the page has not finished, so the next page's reads are not held; a real unload keeps its writes", async () => {
    const db = evotingDb("evoting", privateIndexedDb());
    const page = new EventTarget();
    const stop = closeWhileHidden(db, page as unknown as Window);
    const hidden = (persisted: boolean) => Object.assign(new Event("pagehide"), { persisted });
    const item = (key: string): OutboxItem => ({
      key, userId: "u1", positionId: key, candidateId: "c1", candidateName: "Ada", status: "queued",
      attempts: 0, queuedAt: 1, nextAttemptAt: 0, serverHold: false, lastError: null, leaseOwner: null, leaseUntil: 0,
    });
    const leaveDuring = (persisted: boolean) =>
      db.transaction("rw", db.outbox, async () => {
        await db.outbox.add(item(`first-${persisted}`));
        page.dispatchEvent(hidden(persisted));
        await db.outbox.add(item(`second-${persisted}`));
      });

    // The aborted transaction fails, and its first write is rolled back.
    await expect(leaveDuring(true)).rejects.toBeInstanceOf(Error);
    page.dispatchEvent(new Event("pageshow"));
    expect(await db.outbox.count()).toBe(0);

    await leaveDuring(false);
    expect((await db.outbox.toArray()).map((row) => row.key)).toEqual(["first-false", "second-false"]);
    stop();
    db.close();
  });
});
