/**
 * Votes are checked against positions and candidates kept in memory (issue 13). A change
 * must still count from the next vote on: at once in this process, within a second from
 * another one (a second connection stands in for it).
 */
import { createClient } from "@libsql/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { createTestApp, type TestApp } from "../test/harness.ts";

const MINUTE = 60_000;
let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const vote = (token: string, json: object) => t.request("/vote", { method: "POST", token, json });

describe("ballot rules in memory", () => {
  it("an admin's edit counts from the very next vote: a new candidate, a deleted one, a shortened window", async () => {
    const warm = await t.openElection(admin, ["Ada", "Grace"], "Treasurer");
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const [first, second, third, fourth] = [await t.createVoter(admin), await t.createVoter(admin), await t.createVoter(admin), await t.createVoter(admin)];
    // A vote elsewhere loads the rules into memory, before the changes below.
    expect((await vote(first.token, { positionId: warm.position._id, candidateId: warm.candidates[0]._id })).status).toBe(201);

    // The ballot is not frozen yet (no vote on it): a candidate is added and one removed.
    const added = await t.createCandidate(admin, position._id, "Linus");
    expect((await t.request(`/admin/candidates/${candidates[1]._id}`, { method: "DELETE", token: admin })).status).toBe(200);
    const removed = await vote(second.token, { positionId: position._id, candidateId: candidates[1]._id });
    expect(removed.status).toBe(404);
    expect((await removed.json()).message).toBe(messages.candidateNotFound);
    expect((await vote(second.token, { positionId: position._id, candidateId: added._id })).status).toBe(201);

    const end = new Date(t.clock.now() + MINUTE).toISOString();
    expect((await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { endTime: end } })).status).toBe(200);
    expect((await vote(third.token, { positionId: position._id, candidateId: candidates[0]._id })).status).toBe(201);
    t.clock.advance(2 * MINUTE);
    const late = await vote(fourth.token, { positionId: position._id, candidateId: candidates[0]._id });
    expect(late.status).toBe(403);
    expect((await late.json()).message).toBe(messages.votingEnded);
  });

  it("a change made by another process counts within a second", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const [first, second] = [await t.createVoter(admin), await t.createVoter(admin)];
    expect((await vote(first.token, { positionId: position._id, candidateId: candidates[0]._id })).status).toBe(201);

    const other = createClient({ url: t.database.url });
    try {
      await other.execute("PRAGMA busy_timeout = 5000");
      await other.execute({ sql: "UPDATE positions SET end_time = ? WHERE id = ?", args: [t.clock.now() - MINUTE, position._id] });
    } finally {
      other.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const late = await vote(second.token, { positionId: position._id, candidateId: candidates[1]._id });
    expect(late.status).toBe(403);
    expect((await late.json()).message).toBe(messages.votingEnded);
  });
});
