/**
 * The sync engine alone (scheduling, single flight, Web Locks, draining) against an in-memory
 * outbox: no IndexedDB. sync.test.ts runs the same engine against the device database.
 */
import { describe, expect, it } from "vitest";
import type { OutboxOutcome } from "./db";
import { createSyncEngine, type SyncEngineOptions } from "./sync";
import { created, deferred, fakeLocks, fakeServer, manualClock, memoryOutbox } from "./test-support";

const vote = (positionId: string, userId = "u1") => ({ userId, positionId, candidateId: "c1", candidateName: "Ada" });

function setup(extra: Partial<SyncEngineOptions> & Pick<SyncEngineOptions, "send">) {
  const memory = memoryOutbox();
  const clock = manualClock();
  const outcomes: OutboxOutcome[] = [];
  const engine = createSyncEngine({
    store: memory.store,
    now: clock.now,
    timers: clock.timers,
    random: () => 0.5,
    locks: null,
    baseDelayMs: 1_000,
    maxDelayMs: 60_000,
    onOutcome: (o) => outcomes.push(o),
    ...extra,
  });
  return { memory, clock, engine, outcomes };
}

describe("the sync engine over an in-memory outbox", () => {
  it("drains in queue order, one request at a time, however often it is kicked", async () => {
    const gate = deferred<void>();
    const server = fakeServer(async (item) => {
      await gate.promise;
      return created(item);
    });
    const { memory, engine, outcomes } = setup({ send: server.send });
    for (const p of ["p3", "p1", "p2"]) memory.queue(vote(p));
    const started = engine.start();
    const kicks = [engine.kick(), engine.kick(), engine.kick()];
    gate.resolve();
    await Promise.all([started, ...kicks]);
    expect(server.calls.map((c) => c.positionId)).toEqual(["p3", "p1", "p2"]);
    expect(server.maxInFlight).toBe(1);
    expect(outcomes.map((o) => o.status)).toEqual(["delivered", "delivered", "delivered"]);
    expect(memory.outbox.size).toBe(0);
    expect(engine.getStatus()).toMatchObject({ state: "idle", pending: 0 });
  });

  it("schedules its own retry after a failure and sends again when it falls due, with the same key", async () => {
    const server = fakeServer(new TypeError("Failed to fetch"), created);
    const { memory, clock, engine, outcomes } = setup({ send: server.send });
    const item = memory.queue(vote("p1"));
    await engine.start();
    expect(engine.getStatus()).toMatchObject({ state: "waiting", pending: 1, nextAttemptAt: clock.now() + 750 });
    expect(clock.nextTimerAt()).toBe(clock.now() + 750);
    clock.advance(750); // the engine's own timer starts the next pass
    await expect.poll(() => outcomes.length).toBe(1);
    expect(server.calls.map((c) => c.key)).toEqual([item.key, item.key]);
    expect(outcomes[0]).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("a later vote waits behind a head that backs off; a Retry-After holds even against a kick", async () => {
    const busy = { status: 503, body: { message: "The server is busy. Please try again shortly" }, retryAfter: "30" };
    const server = fakeServer(busy, created);
    const { memory, clock, engine } = setup({ send: server.send });
    memory.queue(vote("p1"));
    memory.queue(vote("p2"));
    await engine.start();
    await engine.kick();
    expect(server.calls.map((c) => c.positionId)).toEqual(["p1"]);
    clock.advance(30_000);
    await expect.poll(() => server.calls.length).toBe(3);
    expect(server.calls.map((c) => c.positionId)).toEqual(["p1", "p1", "p2"]);
  });

  it("401 holds every item of the user until they sign in again; only the signed-in user's votes go", async () => {
    let user: string | null = "u1";
    const server = fakeServer({ status: 401, body: { message: "Please sign in to continue" } }, created);
    const { memory, engine, outcomes } = setup({ send: server.send, currentUserId: () => user });
    memory.queue(vote("p1"));
    memory.queue(vote("p2"));
    memory.queue(vote("p9", "u2"));
    await engine.start();
    expect(server.calls).toHaveLength(1);
    expect([...memory.outbox.values()].map((i) => [i.positionId, i.status])).toEqual([
      ["p1", "auth-required"],
      ["p2", "auth-required"],
      ["p9", "queued"],
    ]);
    expect(engine.getStatus()).toMatchObject({ state: "idle", pending: 2, authRequired: 2 });
    await engine.resumeForUser("u1");
    expect(outcomes.map((o) => o.positionId)).toEqual(["p1", "p2"]);
    user = "u2";
    await engine.kick();
    expect(outcomes.map((o) => o.positionId)).toEqual(["p1", "p2", "p9"]);
  });

  it("with Web Locks, every send happens inside the lock", async () => {
    const locks = fakeLocks();
    const held: boolean[] = [];
    const server = fakeServer((item) => {
      held.push(locks.held());
      return created(item);
    });
    const { memory, engine } = setup({ send: server.send, locks });
    memory.queue(vote("p1"));
    memory.queue(vote("p2"));
    await engine.start();
    expect(held).toEqual([true, true]);
  });

  it("stop(): nothing more is sent, even when a retry falls due", async () => {
    const server = fakeServer(new TypeError("Failed to fetch"), created);
    const { memory, clock, engine } = setup({ send: server.send });
    memory.queue(vote("p1"));
    await engine.start();
    await engine.stop();
    clock.advance(60_000);
    await engine.kick();
    expect(server.calls).toHaveLength(1);
    expect(engine.getStatus().state).toBe("stopped");
  });
});
