/**
 * Who voted, after the close (docs/security.md's mitigation for ballots cast in a voter's name):
 * admins and observers read, per position, the voters with a participation, by matriculation
 * number, and nothing of how they voted; not before the position has closed with its grace.
 */
import { afterEach, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

describe("GET /admin/positions/:id/who-voted", () => {
  it("lists who voted, never how, to admins and observers once voting has closed", async () => {
    t = await createTestApp({ ballotBatch: 1 });
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace Hopper"]);
    const voters = [];
    for (let i = 0; i < 3; i++) voters.push(await t.createVoter(admin));
    // Two vote, for different candidates, the later-made voter first; the third does not vote.
    for (const [v, c] of [
      [voters[1], candidates[0]],
      [voters[0], candidates[1]],
    ] as const) {
      expect((await t.request("/vote", { method: "POST", token: v.token, json: { positionId: position._id, candidateId: c._id } })).status).toBe(201);
    }
    const path = `/admin/positions/${position._id}/who-voted`;
    const early = await t.request(path, { token: admin });
    expect(early.status).toBe(409);
    expect(((await early.json()) as { message: string }).message).toBe(messages.whoVotedNotClosed);

    // The position ends in an hour; the offline grace (10 minutes) follows.
    t.clock.advance(3_600_000 + 5 * 60_000);
    expect((await t.request(path, { token: admin })).status).toBe(409);
    t.clock.advance(6 * 60_000);
    const observer = await t.createObserver(admin);
    for (const token of [admin, observer]) {
      const res = await t.request(path, { token });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      const sorted = [voters[0], voters[1]].map((v) => v.matricNumber).sort();
      expect(body).toEqual({
        positionId: position._id,
        positionTitle: position.title,
        voters: sorted.map((matricNumber) => ({ matricNumber, name: expect.any(String) })),
      });
      // Nothing of a choice: no candidate's id or name anywhere in the answer.
      const text = JSON.stringify(body);
      for (const c of candidates) {
        expect(text).not.toContain(c._id);
        expect(text).not.toContain(c.name);
      }
    }
    expect((await t.request(path, { token: voters[0].token })).status).toBe(403);
    expect((await t.request(path)).status).toBe(401);
    expect((await t.request("/admin/positions/no-such-position/who-voted", { token: admin })).status).toBe(404);
  });
});
