/**
 * Once a position has a vote, what that vote meant may not change: its candidates' names,
 * photos and manifestos, its eligible groups and its abstain option are frozen; once it has
 * closed (end plus the offline grace) its end no longer moves; an offline ticket is good only
 * until the position's current end plus the grace; and 'after close' results stay hidden from
 * voters until every position has closed.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { createTestApp, TINY_PNG, type TestApp } from "../../test/harness.ts";

const MIN = 60_000;
const GRACE = 10 * MIN; // the harness's voteGraceMs (context.ts default)
let t: TestApp;
beforeEach(async () => (t = await createTestApp()));
afterEach(async () => t.close());

const patchCandidate = (admin: string, id: string, fields: Record<string, string | Blob>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v as string);
  return t.request(`/admin/candidates/${id}`, { method: "PATCH", token: admin, body: form });
};
const patchPosition = (admin: string, id: string, json: object) => t.request(`/admin/positions/${id}`, { method: "PATCH", token: admin, json });
const vote = (token: string, json: object) => t.request("/vote", { method: "POST", token, json });

describe("a position with a vote", () => {
  it("refuses renaming, a new photo or manifesto, other groups and the abstain option (409), and changes nothing", async () => {
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Carol", "Dave"]);
    const [carol, dave] = candidates;
    const voter = await t.createVoter(admin);
    expect((await vote(voter.token, { positionId: position._id, candidateId: carol._id })).status).toBe(201);

    const edits: Record<string, string | Blob>[] = [{ name: "Dave" }, { manifesto: "New promises" }, { photo: new Blob([TINY_PNG], { type: "image/png" }) }];
    for (const fields of edits) {
      const res = await patchCandidate(admin, carol._id, fields);
      expect(res.status, JSON.stringify(Object.keys(fields))).toBe(409);
      expect(((await res.json()) as { message: string }).message).toBe(messages.ballotFrozenEdit);
    }
    for (const json of [{ eligibleGroups: ["300L"] }, { allowAbstain: true }]) {
      const res = await patchPosition(admin, position._id, json);
      expect(res.status, JSON.stringify(json)).toBe(409);
      expect(((await res.json()) as { message: string }).message).toBe(messages.ballotFrozenEdit);
    }
    // A form sends every field back: the same values, and the title, still save.
    expect((await patchCandidate(admin, dave._id, { name: "Dave" })).status).toBe(200);
    expect((await patchPosition(admin, position._id, { title: "Chair", eligibleGroups: [], allowAbstain: false })).status).toBe(200);

    const mine = (await (await t.request("/vote/my-votes", { token: voter.token })).json()) as { candidateName: string }[];
    expect(mine[0].candidateName).toBe("Carol");
    const row = (await t.database.client.execute({ sql: "SELECT name, manifesto, photo_id FROM candidates WHERE id = ?", args: [carol._id] })).rows[0];
    expect(row).toMatchObject({ name: "Carol", manifesto: null, photo_id: null });
    const pos = (await t.database.client.execute({ sql: "SELECT eligible_groups, allow_abstain FROM positions WHERE id = ?", args: [position._id] })).rows[0];
    expect(pos).toMatchObject({ eligible_groups: "[]", allow_abstain: 0 });
  });

  it("before any vote, the same edits are allowed", async () => {
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Carol", "Dave"]);
    expect((await patchCandidate(admin, candidates[0]._id, { name: "Caroline", manifesto: "Hi" })).status).toBe(200);
    expect((await patchPosition(admin, position._id, { allowAbstain: true, eligibleGroups: ["300L"] })).status).toBe(200);
  });
});

it("a closed position's end cannot move: a published list cannot be reopened", async () => {
  const admin = await t.adminToken();
  const { position, candidates } = await t.openElection(admin);
  const voter = await t.createVoter(admin);
  const late = await t.createVoter(admin);
  expect((await vote(voter.token, { positionId: position._id, candidateId: candidates[0]._id })).status).toBe(201);
  // The harness's position ends an hour from now; after the end and the grace it is closed.
  t.clock.advance(60 * MIN + GRACE + 1);
  const receipts = await t.request(`/vote/receipts?positionId=${position._id}`, { token: voter.token });
  expect(receipts.status).toBe(200);
  const res = await patchPosition(admin, position._id, { endTime: new Date(t.clock.now() + 60 * MIN).toISOString() });
  expect(res.status).toBe(409);
  expect(((await res.json()) as { message: string }).message).toBe(messages.endLockedClosed);
  expect((await vote(late.token, { positionId: position._id, candidateId: candidates[1]._id })).status).toBe(403);
  expect((await t.request(`/vote/receipts?positionId=${position._id}`, { token: voter.token })).status).toBe(200);
  // Within the end and its grace the end may still be extended (polling day runs late).
  const { position: other } = await t.openElection(admin, ["Ada"], "Secretary");
  t.clock.advance(60 * MIN + GRACE - 1);
  expect((await patchPosition(admin, other._id, { endTime: new Date(t.clock.now() + 60 * MIN).toISOString() })).status).toBe(200);
});

it("an offline ticket is good only until the position's current end plus the grace", async () => {
  const admin = await t.adminToken();
  const { position, candidates } = await t.openElection(admin);
  const voter = await t.createVoter(admin);
  const ballot = (await (await t.request("/vote/positions", { token: voter.token })).json()) as { _id: string; ballotTicket: string }[];
  const ticket = ballot.find((p) => p._id === position._id)?.ballotTicket as string;
  expect(ticket).toBeTruthy();
  // Closed early: its end is now, an hour before the one the ticket was issued under.
  t.clock.advance(MIN);
  expect((await patchPosition(admin, position._id, { endTime: new Date(t.clock.now()).toISOString() })).status).toBe(200);
  t.clock.advance(GRACE + 1);
  const res = await vote(voter.token, { positionId: position._id, candidateId: candidates[0]._id, ballotTicket: ticket });
  expect(res.status).toBe(403);
  expect((await t.database.client.execute("SELECT count(*) AS n FROM participations")).rows[0].n).toBe(0);
});

it("'after close' hides results from voters until every position has closed, whatever the election window says", async () => {
  const admin = await t.adminToken();
  const { position } = await t.openElection(admin);
  const voter = await t.createVoter(admin);
  // A fresh install keeps the baseline's window (docs/product.md), long past: switching to 'after close' alone.
  const election = (await (await t.request("/election", { token: admin })).json()) as Record<string, unknown>;
  expect(Date.parse(String(election.endTime))).toBeLessThan(t.clock.now());
  expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...election, resultsVisibility: "after-close" } })).status).toBe(200);
  expect((await t.request("/vote/results", { token: voter.token })).status).toBe(403);
  expect((await t.request("/vote/results", { token: admin })).status).toBe(200);
  // Its end passed, but a vote queued offline may still arrive: still hidden in the grace.
  t.clock.advance(60 * MIN + 1);
  expect((await t.request("/vote/results", { token: voter.token })).status).toBe(403);
  t.clock.advance(GRACE);
  expect((await t.request("/vote/results", { token: voter.token })).status).toBe(200);
  void position;
});
