/** Through HTTP: editing positions and candidates, the frozen ballot, Yes/No and abstain. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages, type Results } from "@evoting/shared";
import { TINY_PNG, createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(() => t.close());

const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const patchPosition = (id: string, json: unknown, token = admin) => t.request(`/admin/positions/${id}`, { method: "PATCH", token, json });
const patchCandidate = (id: string, fields: Record<string, string | Blob>, token = admin) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return t.request(`/admin/candidates/${id}`, { method: "PATCH", token, body: form });
};
const message = async (res: Response) => ((await res.json()) as { message: string }).message;
/** The Yes/No for a lone candidate is an election setting, off by default (docs/product.md). */
const setUnopposed = async (unopposed: "single" | "yes-no") => {
  const settings = (await (await t.request("/election", { token: admin })).json()) as object;
  const res = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, unopposed } });
  expect(res.status).toBe(200);
};

describe("PATCH /admin/positions/:id", () => {
  it("title any time; start only before opening; end extended any time, shortened never before now", async () => {
    const now = t.clock.now();
    const p = await t.createPosition(admin, "President", iso(now + H), iso(now + 3 * H));
    // Before it opens: everything may move.
    const moved = await patchPosition(p._id, { title: "Chair", startTime: iso(now + 2 * H) });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ title: "Chair", startTime: iso(now + 2 * H), message: messages.updatePositionSuccess });

    t.clock.set(now + 2 * H); // the position opens at this very instant
    const late = await patchPosition(p._id, { startTime: iso(now + 2.5 * H) });
    expect(late.status).toBe(400);
    expect(await message(late)).toBe(messages.startLocked);
    expect((await patchPosition(p._id, { title: "Chairperson" })).status).toBe(200);

    // Polling day runs late: extend; shorten to now is allowed, to a millisecond before is not.
    expect((await patchPosition(p._id, { endTime: iso(now + 5 * H) })).status).toBe(200);
    const early = await patchPosition(p._id, { endTime: iso(now + 2 * H - 1) });
    expect(early.status).toBe(400);
    expect(await message(early)).toBe(messages.endBeforeNow);
    expect((await patchPosition(p._id, { endTime: iso(now + 2 * H + 1) })).status).toBe(200);

    const [stored] = (await (await t.request("/admin/positions", { token: admin })).json()) as { title: string; startTime: string; endTime: string }[];
    expect(stored).toMatchObject({ title: "Chairperson", startTime: iso(now + 2 * H), endTime: iso(now + 2 * H + 1) });
    const log = await t.database.client.execute("SELECT summary FROM audit_log WHERE action = 'position.update' ORDER BY seq");
    expect(log.rows.map((r) => String(r.summary))).toContain(`Edited position: title: "Chair" -> "Chairperson"`);
  });

  it("refuses bad input and unknown positions without changing anything; observers and voters cannot edit", async () => {
    const { position } = await t.openElection(admin);
    expect((await patchPosition(position._id, { startTime: "tomorrow" })).status).toBe(400);
    expect((await patchPosition(position._id, { eligibleGroups: "x".repeat(41) })).status).toBe(400);
    expect((await patchPosition(position._id, { allowAbstain: 1 })).status).toBe(400);
    expect((await patchPosition("nope", { title: "X" })).status).toBe(404);
    const voter = await t.createVoter(admin);
    expect((await patchPosition(position._id, { title: "X" }, voter.token)).status).toBe(403);
    const [stored] = (await (await t.request("/admin/positions", { token: admin })).json()) as { title: string }[];
    expect(stored.title).toBe("President");
  });
});

describe("PATCH /admin/candidates/:id and the frozen ballot", () => {
  it("edits name, photo and manifesto (plain text, at most 2,000 characters)", async () => {
    const { candidates } = await t.openElection(admin);
    const res = await patchCandidate(candidates[0]._id, {
      name: "Ada Lovelace",
      manifesto: "<script>alert(1)</script> More labs.",
      photo: new Blob([TINY_PNG], { type: "image/png" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { name: string; manifesto: string; photo: string };
    expect(body).toMatchObject({ name: "Ada Lovelace", manifesto: "<script>alert(1)</script> More labs.", message: messages.updateCandidateSuccess });
    expect((await t.request(body.photo.replace(/^\/api/, ""))).status).toBe(200);
    const tooLong = await patchCandidate(candidates[0]._id, { manifesto: "x".repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect((await patchCandidate(candidates[0]._id, { photo: new Blob(["<svg/>"], { type: "image/svg+xml" }) })).status).toBe(400);
    expect((await patchCandidate("nope", { name: "X" })).status).toBe(404);
    const listed = (await (await t.request("/vote/positions", { token: admin })).json()) as { candidates: { name: string; manifesto: string | null }[] }[];
    expect(listed[0].candidates.find((c) => c.name === "Ada Lovelace")?.manifesto).toBe("<script>alert(1)</script> More labs.");
    expect((await t.database.client.execute("SELECT count(*) AS n FROM photos")).rows[0].n).toBe(1);
  });

  it("once a position has a vote no candidate joins, leaves or moves; before that they may", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const other = await t.openElection(admin, ["Linus"], "Secretary");
    expect((await patchCandidate(other.candidates[0]._id, { positionId: position._id })).status).toBe(200);
    expect((await patchCandidate(other.candidates[0]._id, { positionId: other.position._id })).status).toBe(200);

    const voter = await t.createVoter(admin);
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);

    const join = await t.createCandidate(admin, other.position._id, "Margaret"); // the other ballot is still open to change
    expect(join.name).toBe("Margaret");
    // Between two ballots without a vote a candidate still moves, whatever other ballots hold.
    const third = await t.openElection(admin, ["Ken"], "Treasurer");
    expect((await patchCandidate(join._id, { positionId: third.position._id })).status).toBe(200);
    expect((await patchCandidate(join._id, { positionId: other.position._id })).status).toBe(200);
    const form = new FormData();
    form.set("name", "Late Entry");
    form.set("positionId", position._id);
    const added = await t.request("/admin/candidates", { method: "POST", token: admin, body: form });
    expect(added.status).toBe(409);
    expect(await message(added)).toBe(messages.ballotFrozen);
    const moveIn = await patchCandidate(other.candidates[0]._id, { positionId: position._id });
    expect(moveIn.status).toBe(409);
    const moveOut = await patchCandidate(candidates[1]._id, { positionId: other.position._id });
    expect(moveOut.status).toBe(409);
    expect(await message(moveOut)).toBe(messages.ballotFrozen);
    const removed = await t.request(`/admin/candidates/${candidates[1]._id}`, { method: "DELETE", token: admin });
    expect(removed.status).toBe(409);
    // Names are frozen too: a rename would move counted votes to another name.
    expect((await patchCandidate(candidates[1]._id, { name: "Grace Hopper" })).status).toBe(409);
    const results = (await (await t.request("/vote/results", { token: admin })).json()) as Results;
    expect(results.results.find((r) => r.positionId === position._id)?.breakdown.map((b) => b.name).sort()).toEqual(["Ada", "Grace"]);
  });
});

describe("the frozen ballot with the mixer's batching (production)", () => {
  it("a vote freezes its ballot while its ballot is pending and after the mixer applied it", async () => {
    await t.close();
    t = await createTestApp({ ballotBatch: 1, config: { mixer: { immediate: false, intervalMs: 3_600_000 } } });
    admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const other = await t.openElection(admin, ["Linus"], "Secretary");
    const voter = await t.createVoter(admin);
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);
    expect((await t.database.client.execute("SELECT count(*) AS n FROM pending_ballots")).rows[0].n).toBe(1);
    const frozen = async () => {
      expect((await patchCandidate(other.candidates[0]._id, { positionId: position._id })).status).toBe(409);
      expect((await patchCandidate(candidates[1]._id, { positionId: other.position._id })).status).toBe(409);
      expect((await t.request(`/admin/candidates/${candidates[1]._id}`, { method: "DELETE", token: admin })).status).toBe(409);
    };
    await frozen();
    await t.deps.mixer.mix();
    expect((await t.database.client.execute("SELECT count(*) AS n FROM pending_ballots")).rows[0].n).toBe(0);
    await frozen();
    // The other ballot has no vote: its candidates may still be removed.
    expect((await t.request(`/admin/candidates/${other.candidates[0]._id}`, { method: "DELETE", token: admin })).status).toBe(200);
  });
});

describe("Yes/No and abstain through the API", () => {
  it("by default (docs/product.md) a lone candidate is an ordinary vote: 'No' is refused and changes nothing", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada"]);
    expect(((await (await t.request("/election", { token: admin })).json()) as { unopposed: string }).unopposed).toBe("single");
    const voter = await t.createVoter(admin);
    const ballot = (await (await t.request("/vote/positions", { token: voter.token })).json()) as { _id: string; yesNo?: boolean }[];
    expect(ballot.find((p) => p._id === position._id)?.yesNo).toBeUndefined();
    const no = await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, choice: "no" } });
    expect(no.status).toBe(400);
    expect(await message(no)).toBe(messages.noNeedsUnopposed);
    expect(await (await t.request("/vote/my-votes", { token: voter.token })).json()).toEqual([]);
    const vote = await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } });
    expect(vote.status).toBe(201);
    const results = (await (await t.request("/vote/results", { token: admin })).json()) as Results;
    expect(results.results[0]).toMatchObject({ totalVotes: 1, noVotes: 0, breakdown: [{ name: "Ada", votes: 1 }] });
    expect(results.results[0].yesNo).toBeUndefined();
  });

  it("the setting freezes at the first vote: switching it then is 409 and changes nothing; other settings still save", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada"]);
    const voter = await t.createVoter(admin);
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);
    const settings = (await (await t.request("/election", { token: admin })).json()) as { unopposed: string };
    const refused = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, title: "Changed", unopposed: "yes-no" } });
    expect(refused.status).toBe(409);
    expect(await message(refused)).toBe(messages.unopposedFrozen);
    expect(await (await t.request("/election", { token: admin })).json()).toEqual(settings);
    expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, title: "Changed" } })).status).toBe(200);
  });

  it("with the setting 'yes-no' an unopposed position takes Yes (the candidate) and No; results count them apart", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada"]);
    await setUnopposed("yes-no");
    const ballot = (await (await t.request("/vote/positions", { token: (await t.createVoter(admin)).token })).json()) as { _id: string; yesNo?: boolean }[];
    expect(ballot.find((p) => p._id === position._id)?.yesNo).toBe(true);
    const cast = async (json: object) => {
      const voter = await t.createVoter(admin);
      return t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, ...json } });
    };
    expect((await cast({ candidateId: candidates[0]._id })).status).toBe(201);
    const no = await cast({ choice: "no" });
    expect(no.status).toBe(201);
    expect(((await no.json()) as { vote: object }).vote).toMatchObject({ positionId: position._id, choice: "no" });
    expect((await cast({ choice: "no" })).status).toBe(201);
    const abstain = await cast({ choice: "abstain" });
    expect(abstain.status).toBe(400);
    expect(await message(abstain)).toBe(messages.abstainNotAllowed);
    const results = (await (await t.request("/vote/results", { token: admin })).json()) as Results;
    expect(results.results[0]).toMatchObject({ totalVotes: 3, noVotes: 2, abstentions: 0, yesNo: true, breakdown: [{ name: "Ada", votes: 1 }] });
  });

  it("'No' is refused where two stand; abstain counts as voted where allowed and stays out of candidates", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    await setUnopposed("yes-no");
    const voter = await t.createVoter(admin);
    const cast = (json: object, token = voter.token) => t.request("/vote", { method: "POST", token, json: { positionId: position._id, ...json } });
    const no = await cast({ choice: "no" });
    expect(no.status).toBe(400);
    expect(await message(no)).toBe(messages.noNeedsUnopposed);
    expect((await cast({ choice: "abstain" })).status).toBe(400);
    expect((await patchPosition(position._id, { allowAbstain: true })).status).toBe(200);
    const key = crypto.randomUUID();
    const first = await t.request("/vote", { method: "POST", token: voter.token, headers: { "Idempotency-Key": key }, json: { positionId: position._id, choice: "abstain" } });
    expect(first.status).toBe(201);
    // The same queued vote replayed is answered as before, not counted again.
    const replay = await t.request("/vote", { method: "POST", token: voter.token, headers: { "Idempotency-Key": key }, json: { positionId: position._id, choice: "abstain" } });
    expect(replay.status).toBe(201);
    expect((await cast({ candidateId: candidates[0]._id })).status).toBe(409);
    const mine = (await (await t.request("/vote/my-votes", { token: voter.token })).json()) as object[];
    expect(mine).toEqual([expect.objectContaining({ positionId: position._id, choice: "abstain" })]);
    const other = await t.createVoter(admin);
    expect((await cast({ candidateId: candidates[1]._id }, other.token)).status).toBe(201);
    const results = (await (await t.request("/vote/results", { token: admin })).json()) as Results;
    expect(results.totalVotesCast).toBe(2);
    expect(results.results[0]).toMatchObject({ totalVotes: 2, abstentions: 1, noVotes: 0 });
    expect(results.results[0].breakdown.map((b) => b.votes)).toEqual([1, 0]);
  });
});
