import { describe, expect, it } from "vitest";
import { forgetUser } from "./db";
import { queueVote } from "./outbox";
import { memoryIndexedDb } from "./test-support";

const vote = { userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada" };

describe("forgetUser ('Logout' on a shared computer)", () => {
  it("removes every row of the user, queued votes and ballot tickets included, and nobody else's", async () => {
    const db = memoryIndexedDb().open();
    await db.cache.put({ userId: "u1", key: "myVotes", data: [{ positionId: "p0", candidateId: "c", candidateName: "C" }], savedAt: 1 });
    await db.cache.put({ userId: "u2", key: "myVotes", data: [], savedAt: 1 });
    await db.outcomes.put({ ...vote, positionId: "p0", key: "k0", status: "delivered", httpStatus: 201, message: "ok", recordedVote: null, attempts: 1, queuedAt: 1, settledAt: 2, seenAt: null });
    await queueVote({ ...vote, ballotTicket: "ticket-1" }, { db });
    await queueVote({ ...vote, userId: "u2" }, { db });

    await forgetUser("u1", db);

    for (const table of [db.cache, db.marks, db.outcomes, db.outbox]) {
      expect(await table.where("userId").equals("u1").count()).toBe(0);
    }
    expect(await db.outbox.where("userId").equals("u2").count()).toBe(1);
    expect(await db.cache.where("userId").equals("u2").count()).toBe(1);
  });
});
