/**
 * Voter receipts: one per counted ballot, shown in the vote's answer and in
 * my-votes; none for a refused vote; the public list after the close holds exactly the
 * ballots' codes (total = tally), sorted; and the database alone holds no receipt.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages, type MyVote, type ReceiptList } from "@evoting/shared";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { receiptCode } from "../services/votes/receipts.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const CODE = /^[0-9A-HJKMNP-TV-Z]{10}$/;

describe("receipts", () => {
  it("one per counted ballot; none for a refused vote; the closed position's list matches the tallies", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const voters = [];
    for (let i = 0; i < 5; i++) voters.push(await t.createVoter(admin));
    const given: string[] = [];
    for (const [i, v] of voters.entries()) {
      const res = await t.request("/vote", { method: "POST", token: v.token, json: { positionId: position._id, candidateId: candidates[i % 2]._id } });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { receipt: string; vote: MyVote };
      expect(body.receipt).toMatch(CODE);
      expect(body.vote.receipt).toBe(body.receipt);
      given.push(body.receipt);
    }
    expect(new Set(given).size).toBe(5);

    // A second vote is refused and carries no new receipt; my-votes shows the first.
    const again = await t.request("/vote", { method: "POST", token: voters[0].token, json: { positionId: position._id, candidateId: candidates[1]._id } });
    expect(again.status).toBe(409);
    const againBody = (await again.json()) as { receipt?: string; vote?: MyVote };
    expect(againBody.receipt).toBeUndefined();
    expect(againBody.vote?.receipt).toBe(given[0]);
    const mine = (await (await t.request("/vote/my-votes", { token: voters[1].token })).json()) as MyVote[];
    expect(mine).toEqual([expect.objectContaining({ positionId: position._id, receipt: given[1] })]);

    // A refused vote (not eligible: an admin) leaves no ballot, so no receipt.
    expect((await t.request("/vote", { method: "POST", token: admin, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(403);

    // Before the close (and its grace for queued votes) the list is not published.
    const early = await t.request(`/vote/receipts?positionId=${position._id}`, { token: voters[2].token });
    expect(early.status).toBe(403);
    expect((await early.json()).message).toBe(messages.receiptsNotYet);
    t.clock.advance(3_600_000 + t.deps.config.voteGraceMs);

    const res = await t.request(`/vote/receipts?positionId=${position._id}`, { token: voters[2].token });
    expect(res.status).toBe(200);
    const list = (await res.json()) as ReceiptList;
    expect(list.positionId).toBe(position._id);
    expect(list.receipts).toEqual([...given].sort());
    const results = await (await t.request("/vote/results", { token: admin })).json();
    expect(list.total).toBe(results.results[0].totalVotes);
    expect(list.total).toBe(5);

    // Recomputable only with the server key, from the ballots' ids: the database holds no code.
    const ballots = await t.database.client.execute({ sql: "SELECT id FROM ballots WHERE position_id = ?", args: [position._id] });
    expect(ballots.rows.map((r) => receiptCode(t.deps.keys, String(r.id))).sort()).toEqual(list.receipts);
    const dump = JSON.stringify((await t.database.client.execute("SELECT * FROM ballots")).rows) +
      JSON.stringify((await t.database.client.execute("SELECT * FROM participations")).rows);
    for (const code of given) expect(dump).not.toContain(code);
  });

  it("404 for an unknown position, 400 without one, 401 signed out", async () => {
    const v = await t.createVoter(admin);
    expect((await t.request("/vote/receipts?positionId=nope", { token: v.token })).status).toBe(404);
    expect((await t.request("/vote/receipts", { token: v.token })).status).toBe(400);
    expect((await t.request("/vote/receipts?positionId=x")).status).toBe(401);
  });

  it("codes are stable per ballot id and key, and differ across keys", () => {
    const a = receiptCode(t.deps.keys, "ballot-1");
    expect(a).toMatch(CODE);
    expect(receiptCode(t.deps.keys, "ballot-1")).toBe(a);
    expect(receiptCode(t.deps.keys, "ballot-2")).not.toBe(a);
    expect(receiptCode({ receipt: Buffer.alloc(32, 1) }, "ballot-1")).not.toBe(a);
  });
});

describe("the published list of every method", () => {
  it("holds every ballot: a referendum's 'yes' ballots applied at the close join the list, and no list is published while ballots wait", async () => {
    const app = await createTestApp({ ballotBatch: 10 });
    try {
      const token = await app.adminToken();
      const now = app.clock.now();
      const created = await app.request("/admin/positions", {
        method: "POST",
        token,
        json: { title: "Constitution", method: "referendum", question: "Adopt it?", startTime: new Date(now - 3_600_000).toISOString(), endTime: new Date(now + 3_600_000).toISOString() },
      });
      const position = (await created.json()) as { _id: string };
      const given: string[] = [];
      for (const choice of [...Array<string>(10).fill("no"), "yes", "yes", "yes"]) {
        const voter = await app.createVoter(token);
        const res = await app.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, choice } });
        expect(res.status).toBe(201);
        given.push(((await res.json()) as { receipt: string }).receipt);
      }
      // Ten applied as a batch, three still waiting for the close.
      expect(Number((await app.database.client.execute("SELECT count(*) AS n FROM pending_ballots")).rows[0].n)).toBe(3);
      app.clock.advance(3_600_000 + app.deps.config.voteGraceMs);
      // No list while ballots wait; the route applies a closed position's waiting ballots first.
      expect(await app.deps.receiptLists.of(position._id)).toBeNull();
      const res = await app.request(`/vote/receipts?positionId=${position._id}`, { token });
      expect(res.status).toBe(200);
      expect(Number((await app.database.client.execute("SELECT count(*) AS n FROM pending_ballots")).rows[0].n)).toBe(0);
      const list = (await res.json()) as ReceiptList;
      expect(list.total).toBe(13);
      expect(list.receipts).toEqual([...given].sort());
    } finally {
      await app.close();
    }
  });
});
