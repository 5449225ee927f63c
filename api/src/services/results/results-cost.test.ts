/**
 * Results freshness vs cost (bench/: a recompute at 500,000 ballots blocks ~275 ms): cheap
 * recomputes are always fresh; costly ones are reused for a bounded time instead of being
 * redone for every vote batch.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
// A batch of 1: these tests read each vote in the tallies as soon as it is applied.
beforeEach(async () => (t = await createTestApp({ ballotBatch: 1 })));
afterEach(async () => t.close());

describe("results snapshot reuse", () => {
  it("is fresh after every vote while recomputes are cheap, and bounded-stale when they are costly", async () => {
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin);
    const voters = [await t.createVoter(admin), await t.createVoter(admin), await t.createVoter(admin)];
    const total = async () => (await t.deps.results.get()).results[0].totalVotes;
    const vote = (token: string) => t.request("/vote", { method: "POST", token, json: { positionId: position._id, candidateId: candidates[0]._id } });

    expect((await vote(voters[0].token)).status).toBe(201);
    expect(await total()).toBe(1); // small election: every read is fresh

    // Pretend the last recompute was costly (as at 500,000 ballots): the snapshot is reused...
    Reflect.set(t.deps.results, "lastComputeMs", 100);
    expect((await vote(voters[1].token)).status).toBe(201);
    expect(await total()).toBe(1);
    // ...for at most ~10 recompute-times, then recomputed.
    Reflect.set(t.deps.results, "computedAt", performance.now() - 1_001);
    expect(await total()).toBe(2);
    Reflect.set(t.deps.results, "lastComputeMs", 100_000);
    expect((await vote(voters[2].token)).status).toBe(201);
    Reflect.set(t.deps.results, "computedAt", performance.now() - 3_001); // never staler than 3 s
    expect(await total()).toBe(3);
  });
});
