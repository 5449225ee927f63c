import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness.ts";

let t: TestApp;
beforeEach(async () => (t = await createTestApp()));
afterEach(async () => t.close());

describe("vote smoke", () => {
  it("casts one vote and counts it", async () => {
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin);
    const voter = await t.createVoter(admin);
    const key = crypto.randomUUID();
    const cast = () =>
      t.request("/vote", { method: "POST", token: voter.token, headers: { "idempotency-key": key }, json: { positionId: position._id, candidateId: candidates[0]._id } });
    const first = await cast();
    expect(first.status).toBe(201);
    const again = await cast();
    expect(again.status).toBe(201);
    const results = await (await t.request("/vote/results", { token: voter.token })).json();
    expect(results.totalVotesCast).toBe(1);
    expect(results.results[0].totalVotes).toBe(1);
    const mine = await (await t.request("/vote/my-votes", { token: voter.token })).json();
    expect(mine).toEqual([{ positionId: position._id, candidateId: candidates[0]._id, candidateName: "Ada" }]);
  });
});
