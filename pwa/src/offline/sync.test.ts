import { describe, expect, it, vi } from "vitest";
import type { EvotingDB, OutboxOutcome } from "./db";
import { offlineText } from "./notices";
import { queueVote } from "./outbox";
import { indexedDbOutbox } from "./outbox-store";
import { backoffDelay, createSyncEngine, parseRetryAfter, type SyncEngineOptions } from "./sync";
import { created, deferred, fakeLocks, fakeServer, manualClock, memoryIndexedDb } from "./test-support";

const ada = { userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada" };

function setup(db: EvotingDB, send: SyncEngineOptions["send"], extra: Partial<SyncEngineOptions> = {}) {
  const clock = manualClock();
  const outcomes: OutboxOutcome[] = [];
  const engine = createSyncEngine({
    store: indexedDbOutbox(db),
    send,
    now: clock.now,
    timers: clock.timers,
    random: () => 0.5,
    locks: null,
    baseDelayMs: 1_000,
    maxDelayMs: 60_000,
    onOutcome: (o) => outcomes.push(o),
    ...extra,
  });
  return { clock, engine, outcomes };
}

describe("delivery", () => {
  it("201: sends the body with the item's key, records the server's vote, and empties the queue", async () => {
    const db = memoryIndexedDb().open();
    await db.cache.put({ userId: "u1", key: "myVotes", data: [], savedAt: 1 });
    const item = await queueVote({ ...ada, ballotTicket: "t1" }, { db });
    const server = fakeServer(created);
    const { engine, outcomes } = setup(db, server.send);

    await engine.start();

    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({ key: item.key, positionId: "p1", candidateId: "c1", ballotTicket: "t1" });
    expect(await db.outbox.count()).toBe(0);
    expect(outcomes).toEqual([expect.objectContaining({ key: item.key, status: "delivered", httpStatus: 201, message: "Vote cast successfully!" })]);
    expect(await db.outcomes.get(item.key)).toMatchObject({ status: "delivered", recordedVote: { candidateId: "c1" }, seenAt: null });
    expect(await db.marks.get(["u1", "p1"])).toMatchObject({ state: "voted", candidateId: "c1", candidateName: "Ada" });
    expect((await db.cache.get(["u1", "myVotes"]))?.data).toEqual([{ positionId: "p1", candidateId: "c1", candidateName: "Ada" }]);
    expect(engine.getStatus()).toMatchObject({ state: "idle", pending: 0 });
  });

  it("replays in queue order", async () => {
    const db = memoryIndexedDb().open();
    for (const p of ["p3", "p1", "p2"]) await queueVote({ ...ada, positionId: p }, { db });
    const server = fakeServer(created);
    const { engine } = setup(db, server.send);
    await engine.start();
    expect(server.calls.map((c) => c.positionId)).toEqual(["p3", "p1", "p2"]);
  });

  it("is single-flight: kicks during a replay never start a second request", async () => {
    const db = memoryIndexedDb().open();
    for (const p of ["p1", "p2", "p3"]) await queueVote({ ...ada, positionId: p }, { db });
    const gate = deferred<void>();
    const server = fakeServer(async (item) => {
      await gate.promise;
      return created(item);
    });
    const { engine } = setup(db, server.send);

    const runs = [engine.start(), engine.kick(), engine.kick(), engine.kick()];
    await vi.waitFor(() => expect(server.calls).toHaveLength(1), { timeout: 5_000 });
    // Each kick joined the replay under way rather than starting its own.
    expect(runs.every((run) => run === runs[0])).toBe(true);
    expect(server.calls).toHaveLength(1);
    gate.resolve();
    await Promise.all(runs);

    expect(server.maxInFlight).toBe(1);
    expect(server.calls.map((c) => c.positionId)).toEqual(["p1", "p2", "p3"]);
  });

  it("only sends the signed-in voter's items", async () => {
    const db = memoryIndexedDb().open();
    await queueVote({ ...ada, userId: "u2" }, { db });
    await queueVote(ada, { db });
    let user: string | null = "u1";
    const server = fakeServer(created);
    const { engine } = setup(db, server.send, { currentUserId: () => user });
    await engine.start();
    expect(server.calls.map((c) => c.userId)).toEqual(["u1"]);

    user = null;
    await engine.kick();
    expect(server.calls).toHaveLength(1);
    user = "u2";
    await engine.kick();
    expect(server.calls.map((c) => c.userId)).toEqual(["u1", "u2"]);
  });
});

describe("server answers that end an item", () => {
  it("409: resolved as voted with the server's choice, and the voter is told the queued vote was not needed", async () => {
    const db = memoryIndexedDb().open();
    const item = await queueVote(ada, { db });
    const server = fakeServer({ status: 409, body: { message: "You have already voted for this position" } });
    const serverVotes = [{ positionId: "p1", candidateId: "c2", candidateName: "Bob" }];
    const fetchMyVotes = vi.fn(async () => serverVotes);
    const { engine, outcomes } = setup(db, server.send, { fetchMyVotes });

    await engine.start();

    expect(fetchMyVotes).toHaveBeenCalledWith("u1");
    expect(outcomes).toEqual([
      expect.objectContaining({ key: item.key, status: "already-voted", httpStatus: 409, message: offlineText.notNeeded, recordedVote: serverVotes[0] }),
    ]);
    expect(await db.marks.get(["u1", "p1"])).toMatchObject({ state: "voted", candidateId: "c2", candidateName: "Bob" });
    expect((await db.cache.get(["u1", "myVotes"]))?.data).toEqual(serverVotes);
    expect(await db.outbox.count()).toBe(0);
  });

  it("409 with the vote in the body needs no extra request; without either it still resolves", async () => {
    const db = memoryIndexedDb().open();
    await queueVote(ada, { db });
    await queueVote({ ...ada, positionId: "p2" }, { db });
    const server = fakeServer(
      { status: 409, body: { message: "x", vote: { positionId: "p1", candidateId: "c7", candidateName: "Cy" } } },
      { status: 409, body: { message: "x" } },
    );
    const fetchMyVotes = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    const { engine, outcomes } = setup(db, server.send, { fetchMyVotes });
    await engine.start();
    expect(fetchMyVotes).toHaveBeenCalledTimes(1);
    expect(outcomes.map((o) => [o.positionId, o.status, o.recordedVote?.candidateName ?? null])).toEqual([
      ["p1", "already-voted", "Cy"],
      ["p2", "already-voted", null],
    ]);
    expect(await db.marks.get(["u1", "p2"])).toMatchObject({ state: "voted", candidateId: null });
  });

  it.each([
    [403, "Voting for this position has ended"],
    [422, "This Idempotency-Key was already used for a different vote"],
    [404, "Candidate not found"],
    [400, "This candidate is not standing for this position"],
  ])("%i: leaves the queue as rejected, with the server's message on the card", async (status, message) => {
    const db = memoryIndexedDb().open();
    const item = await queueVote(ada, { db });
    const server = fakeServer({ status, body: { message } });
    const { engine, outcomes } = setup(db, server.send);

    await engine.start();

    expect(server.calls).toHaveLength(1);
    expect(await db.outbox.count()).toBe(0);
    expect(outcomes).toEqual([expect.objectContaining({ key: item.key, status: "rejected", httpStatus: status, message })]);
    expect(await db.marks.get(["u1", "p1"])).toMatchObject({ state: "rejected", message });
    // The voter may choose again (e.g. the candidate was withdrawn).
    await expect(queueVote({ ...ada, candidateId: "c2" }, { db })).resolves.toBeDefined();
  });

  it("a rejection without a message falls back to the cast-vote error", async () => {
    const db = memoryIndexedDb().open();
    await queueVote(ada, { db });
    const { engine, outcomes } = setup(db, fakeServer({ status: 403, body: null }).send);
    await engine.start();
    expect(outcomes[0]?.message).toBe("Failed to cast vote");
  });
});

describe("401: kept until the same user signs in again", () => {
  it("holds every item of that user, sends nothing more, and resumes with the same keys", async () => {
    const db = memoryIndexedDb().open();
    const first = await queueVote(ada, { db });
    const second = await queueVote({ ...ada, positionId: "p2" }, { db });
    const server = fakeServer({ status: 401, body: { message: "Your session has expired. Please sign in again" } }, created);
    const { engine, clock, outcomes } = setup(db, server.send);

    await engine.start();
    expect(server.calls).toHaveLength(1);
    expect((await db.outbox.toArray()).map((i) => i.status)).toEqual(["auth-required", "auth-required"]);
    expect(engine.getStatus()).toMatchObject({ pending: 2, authRequired: 2, state: "idle" });
    expect(outcomes).toEqual([]);

    clock.advance(24 * 60 * 60_000);
    await engine.kick();
    expect(server.calls).toHaveLength(1);

    await engine.resumeForUser("u1");
    expect(server.calls.map((c) => c.key)).toEqual([first.key, first.key, second.key]);
    expect(outcomes.map((o) => o.status)).toEqual(["delivered", "delivered"]);
  });
});

describe("retries", () => {
  it("network failure: exponential backoff with jitter, same key every time, until the server answers", async () => {
    const db = memoryIndexedDb().open();
    const item = await queueVote(ada, { db });
    const offline = new TypeError("Failed to fetch");
    const server = fakeServer(offline, offline, offline, created);
    const { engine, clock, outcomes } = setup(db, server.send);

    await engine.start();
    // attempt 1 failed: step 1 s, jitter 0.5 -> 750 ms
    let stored = (await db.outbox.toArray())[0]!;
    expect(stored).toMatchObject({ status: "queued", attempts: 1, nextAttemptAt: clock.now() + 750, lastError: { kind: "network" } });
    expect(engine.getStatus()).toMatchObject({ state: "waiting", pending: 1, nextAttemptAt: clock.now() + 750 });

    clock.advance(749);
    await engine.kick({ force: false });
    expect(server.calls).toHaveLength(1);

    clock.advance(1); // the engine's own timer fires
    await engine.kick({ force: false });
    expect(server.calls).toHaveLength(2);
    stored = (await db.outbox.toArray())[0]!;
    expect(stored.nextAttemptAt - clock.now()).toBe(1_500); // step 2 s

    clock.advance(1_500);
    await engine.kick({ force: false });
    stored = (await db.outbox.toArray())[0]!;
    expect(stored.nextAttemptAt - clock.now()).toBe(3_000); // step 4 s

    clock.advance(3_000);
    await engine.kick({ force: false });
    expect(server.calls.map((c) => c.key)).toEqual([item.key, item.key, item.key, item.key]);
    expect(outcomes).toEqual([expect.objectContaining({ status: "delivered", attempts: 4 })]);
  });

  it("the backoff grows to its cap and the jitter spreads retries", () => {
    expect(backoffDelay(1, 0, 1_000, 60_000)).toBe(500);
    expect(backoffDelay(1, 1, 1_000, 60_000)).toBe(1_000);
    expect(backoffDelay(5, 0.5, 1_000, 60_000)).toBe(12_000);
    expect(backoffDelay(30, 1, 1_000, 60_000)).toBe(60_000);
  });

  it("the connection coming back (a kick) skips our own backoff after a network failure", async () => {
    const db = memoryIndexedDb().open();
    await queueVote(ada, { db });
    const server = fakeServer(new TypeError("Failed to fetch"), created);
    const { engine, outcomes } = setup(db, server.send);
    await engine.start();
    await engine.kick(); // 'online' event
    expect(outcomes.map((o) => o.status)).toEqual(["delivered"]);
  });

  it("503 with Retry-After: waits as long as the server asked, even when kicked", async () => {
    const db = memoryIndexedDb().open();
    await queueVote(ada, { db });
    const server = fakeServer({ status: 503, body: { message: "The server is busy. Please try again shortly" }, retryAfter: "120" }, created);
    const { engine, clock, outcomes } = setup(db, server.send);

    await engine.start();
    const stored = (await db.outbox.toArray())[0]!;
    expect(stored).toMatchObject({ serverHold: true, nextAttemptAt: clock.now() + 120_000, lastError: { kind: "busy", httpStatus: 503 } });

    clock.advance(60_000);
    await engine.kick();
    expect(server.calls).toHaveLength(1);

    clock.advance(60_000);
    await engine.kick({ force: false });
    expect(server.calls).toHaveLength(2);
    expect(outcomes.map((o) => o.status)).toEqual(["delivered"]);
  });

  it.each([429, 500, 502, 408])("%i is retried, not dropped", async (status) => {
    const db = memoryIndexedDb().open();
    await queueVote(ada, { db });
    const server = fakeServer({ status, body: { message: "later" } }, created);
    const { engine, clock, outcomes } = setup(db, server.send);
    await engine.start();
    expect(await db.outbox.count()).toBe(1);
    clock.advance(clock.nextTimerAt()! - clock.now());
    await engine.kick({ force: false });
    expect(outcomes.map((o) => o.status)).toEqual(["delivered"]);
  });

  it("a later vote waits behind the head of the queue while it backs off", async () => {
    const db = memoryIndexedDb().open();
    await queueVote(ada, { db });
    await queueVote({ ...ada, positionId: "p2" }, { db });
    const server = fakeServer({ status: 503, body: {}, retryAfter: "30" }, created);
    const { engine, clock } = setup(db, server.send);
    await engine.start();
    await engine.kick();
    expect(server.calls.map((c) => c.positionId)).toEqual(["p1"]);
    clock.advance(30_000);
    await engine.kick({ force: false });
    expect(server.calls.map((c) => c.positionId)).toEqual(["p1", "p1", "p2"]);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.UTC(2025, 6, 4, 10, 0, 0);
    expect(parseRetryAfter("5", now)).toBe(5_000);
    expect(parseRetryAfter(new Date(now + 90_000).toUTCString(), now)).toBe(90_000);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it("a request that never answers is abandoned when its claim expires, then retried with the same key", async () => {
    const db = memoryIndexedDb().open();
    const item = await queueVote(ada, { db });
    const server = fakeServer(() => new Promise<never>(() => undefined), created);
    const { engine, clock, outcomes } = setup(db, server.send, { leaseMs: 5_000 });

    const run = engine.start();
    await vi.waitFor(() => expect(server.calls).toHaveLength(1), { timeout: 5_000 });
    clock.advance(5_000);
    await run;
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: "queued", leaseOwner: null, lastError: { kind: "network" } });

    clock.advance(clock.nextTimerAt()! - clock.now());
    await engine.kick({ force: false });
    expect(server.calls.map((c) => c.key)).toEqual([item.key, item.key]);
    expect(outcomes.map((o) => o.status)).toEqual(["delivered"]);
  });

  it("after stop() nothing is sent, even when a retry falls due", async () => {
    const db = memoryIndexedDb().open();
    await queueVote(ada, { db });
    const server = fakeServer(new TypeError("Failed to fetch"), created);
    const { engine, clock } = setup(db, server.send);
    await engine.start();
    await engine.stop();
    expect(clock.nextTimerAt()).toBeNull();
    clock.advance(60_000);
    await engine.kick();
    expect(server.calls).toHaveLength(1);
    expect(engine.getStatus().state).toBe("stopped");
  });
});

describe("restart and several tabs", () => {
  it("an item left 'sending' by a closed tab is retried with the same key once its lease expires", async () => {
    const db = memoryIndexedDb().open();
    const item = await queueVote(ada, { db });
    const clock = manualClock();
    await db.outbox.update(item.id!, { status: "sending", attempts: 1, leaseOwner: "closed-tab", leaseUntil: clock.now() + 30_000 });
    const server = fakeServer(created);
    const engine = createSyncEngine({ store: indexedDbOutbox(db), send: server.send, now: clock.now, timers: clock.timers, locks: null });

    await engine.start();
    expect(server.calls).toHaveLength(0); // the lease might still belong to a live tab
    expect(clock.nextTimerAt()).toBe(clock.now() + 30_000);

    clock.advance(30_000);
    await engine.kick({ force: false });
    expect(server.calls.map((c) => c.key)).toEqual([item.key]);
    expect(await db.outcomes.get(item.key)).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("holding the Web Lock proves the old lease is stale: retried at once, same key", async () => {
    const db = memoryIndexedDb().open();
    const item = await queueVote(ada, { db });
    await db.outbox.update(item.id!, { status: "sending", leaseOwner: "closed-tab", leaseUntil: Number.MAX_SAFE_INTEGER });
    const server = fakeServer(created);
    const { engine } = setup(db, server.send, { locks: fakeLocks() });
    await engine.start();
    expect(server.calls.map((c) => c.key)).toEqual([item.key]);
  });

  it.each([
    ["without Web Locks (atomic IndexedDB claim only)", () => null],
    ["with Web Locks", () => fakeLocks()],
  ])("two tabs replaying at once never send an item twice, %s", async (_label, makeLocks) => {
    const idb = memoryIndexedDb();
    const tabA = idb.open();
    const tabB = idb.open();
    const keys: string[] = [];
    for (let i = 0; i < 6; i++) keys.push((await queueVote({ ...ada, positionId: `p${i}` }, { db: i % 2 ? tabA : tabB })).key);

    const server = fakeServer(created); // shared: both tabs talk to the same server
    const locks = makeLocks();
    const outcomes: OutboxOutcome[] = [];
    const make = (db: EvotingDB) =>
      createSyncEngine({ store: indexedDbOutbox(db), send: server.send, locks, onOutcome: (o) => outcomes.push(o), leaseMs: 60_000 });
    const a = make(tabA);
    const b = make(tabB);

    await Promise.all([a.start(), b.start(), a.kick(), b.kick()]);

    expect(server.calls.map((c) => c.key).sort()).toEqual([...keys].sort());
    expect(outcomes.map((o) => o.key).sort()).toEqual([...keys].sort());
    expect(await tabA.outbox.count()).toBe(0);
    expect(await tabB.outcomes.count()).toBe(6);
  });

  it("if a lease expires mid-request and a second tab re-sends, only one outcome is recorded", async () => {
    const idb = memoryIndexedDb();
    const tabA = idb.open();
    const tabB = idb.open();
    const item = await queueVote(ada, { db: tabA });
    const clock = manualClock();
    const slow = deferred<void>();
    // The server replays the original 201 for the same key (idempotency), however often asked.
    const server = fakeServer(async (i) => {
      if (server.calls.length === 1) await slow.promise;
      return created(i);
    });
    const outcomes: OutboxOutcome[] = [];
    const opts = { send: server.send, now: clock.now, timers: clock.timers, locks: null, leaseMs: 1_000, onOutcome: (o: OutboxOutcome) => outcomes.push(o) };
    const a = createSyncEngine({ store: indexedDbOutbox(tabA), ...opts });
    const b = createSyncEngine({ store: indexedDbOutbox(tabB), ...opts });

    const aRun = a.start();
    await vi.waitFor(() => expect(server.calls).toHaveLength(1), { timeout: 5_000 }); // tab A's request is in flight
    clock.advance(1_001);
    await b.start();
    slow.resolve();
    await aRun;

    expect(server.calls.map((c) => c.key)).toEqual([item.key, item.key]);
    expect(outcomes).toHaveLength(1);
    expect(await tabA.outcomes.count()).toBe(1);
  });
});
