import { describe, expect, it } from "vitest";
import { clearUserData } from "./db";
import { QueueRefusedError, queueVote } from "./outbox";
import { memoryIndexedDb } from "./test-support";

const vote = { userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada" };

describe("queueVote", () => {
  it("writes the outbox item and the 'queued' mark together, with a fresh UUID key", async () => {
    const db = memoryIndexedDb().open();
    const item = await queueVote(vote, { db, now: () => 1000 });

    expect(item.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await db.outbox.toArray()).toEqual([expect.objectContaining({ ...vote, key: item.key, status: "queued", attempts: 0, queuedAt: 1000 })]);
    expect(await db.marks.get(["u1", "p1"])).toMatchObject({ state: "queued", candidateId: "c1", key: item.key });

    const second = await queueVote({ ...vote, positionId: "p2" }, { db });
    expect(second.key).not.toBe(item.key);
  });

  it("refuses a second vote for a position that already has one waiting", async () => {
    const db = memoryIndexedDb().open();
    await queueVote(vote, { db });
    await expect(queueVote({ ...vote, candidateId: "c2", candidateName: "Bob" }, { db })).rejects.toMatchObject({
      name: "QueueRefusedError",
      reason: "already-queued",
    });
    expect(await db.outbox.count()).toBe(1);
    expect(await db.marks.get(["u1", "p1"])).toMatchObject({ candidateId: "c1" });
  });

  it("refuses a position already voted on, known from the server's vote list or a delivered vote", async () => {
    const db = memoryIndexedDb().open();
    await db.cache.put({ userId: "u1", key: "myVotes", data: [{ positionId: "p1", candidateId: "c9", candidateName: "Zed" }], savedAt: 1 });
    await expect(queueVote(vote, { db })).rejects.toBeInstanceOf(QueueRefusedError);

    await db.marks.put({ userId: "u1", positionId: "p2", state: "voted", candidateId: "c1", candidateName: "Ada", key: null, message: null, updatedAt: 1 });
    await expect(queueVote({ ...vote, positionId: "p2" }, { db })).rejects.toMatchObject({ reason: "already-voted" });
    expect(await db.outbox.count()).toBe(0);
  });

  it("another voter on the same device may still vote for the position", async () => {
    const db = memoryIndexedDb().open();
    await queueVote(vote, { db });
    await queueVote({ ...vote, userId: "u2" }, { db });
    expect(await db.outbox.count()).toBe(2);
  });

  it("takes the ballot ticket the device received with the ballot when none is passed", async () => {
    const db = memoryIndexedDb().open();
    await db.cache.put({
      userId: "u1",
      key: "positions",
      data: [{ _id: "p1", title: "President", startTime: "", endTime: "", candidates: [], ballotTicket: "signed-ticket" }],
      savedAt: 1,
    });
    const item = await queueVote(vote, { db });
    expect(item.ballotTicket).toBe("signed-ticket");
    const explicit = await queueVote({ ...vote, positionId: "p3", ballotTicket: "given" }, { db });
    expect(explicit.ballotTicket).toBe("given");
  });

  it("is all or nothing: if marking the position fails, no item is queued", async () => {
    const db = memoryIndexedDb().open();
    // The mark is the transaction's last write: refuse it as a full disk would.
    db.marks.hook("creating", () => {
      throw new Error("disk full");
    });
    await expect(queueVote(vote, { db })).rejects.toThrow("disk full");
    expect(await db.outbox.count()).toBe(0);
  });
});

describe("clearUserData (logout)", () => {
  it("forgets the user's data but keeps votes the server has not answered, and other users' data", async () => {
    const db = memoryIndexedDb().open();
    await db.cache.put({ userId: "u1", key: "results", data: { totalRegisteredVoters: 1, totalVotesCast: 0, results: [], generatedAt: "" }, savedAt: 1 });
    await db.cache.put({ userId: "u2", key: "myVotes", data: [], savedAt: 1 });
    await db.marks.put({ userId: "u1", positionId: "p0", state: "voted", candidateId: "c", candidateName: "C", key: "k0", message: null, updatedAt: 1 });
    await db.outcomes.put({ ...vote, positionId: "p0", key: "k0", status: "delivered", httpStatus: 201, message: "ok", recordedVote: null, attempts: 1, queuedAt: 1, settledAt: 2, seenAt: null });
    const queued = await queueVote(vote, { db });
    const held = await queueVote({ ...vote, positionId: "p2" }, { db });
    await db.outbox.update(held.id!, { status: "auth-required" });

    await clearUserData("u1", db);

    expect((await db.outbox.toArray()).map((i) => i.key).sort()).toEqual([queued.key, held.key].sort());
    expect((await db.marks.toArray()).map((m) => `${m.positionId}:${m.state}`).sort()).toEqual(["p1:queued", "p2:queued"]);
    expect(await db.outcomes.count()).toBe(0);
    expect(await db.cache.toArray()).toEqual([expect.objectContaining({ userId: "u2" })]);
  });
});
