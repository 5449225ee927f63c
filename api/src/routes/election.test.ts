/** Through HTTP: election settings, results visibility (API and stream), ballot order, eligibility. */
import { describe, expect, it } from "vitest";
import type { BallotPosition, ElectionSettings, Results } from "@evoting/shared";
import { SPEC_ELECTION, messages } from "@evoting/shared";
import { readSse } from "../realtime/sse-reader.ts";
import { freshTestApps, type TestApp } from "../test/harness.ts";

const fresh = freshTestApps();

const SPEC_DEFAULTS: ElectionSettings = SPEC_ELECTION;

/** A voter in the given roll groups (H2's POST /admin/users takes groups). */
export async function voterIn(t: TestApp, admin: string, matricNumber: string, groups: string[]) {
  const res = await t.request("/admin/users", {
    method: "POST",
    token: admin,
    json: { name: `Voter ${matricNumber}`, matricNumber, dateOfBirth: 20020515, groups },
  });
  expect(res.status).toBe(201);
  return (await t.login(matricNumber, { dateOfBirth: 20020515 })).token;
}

describe("election settings", () => {
  it("start as the baseline's election (docs/product.md); the login page gets only the title", async () => {
    const t = await fresh();
    const admin = await t.adminToken();
    const voter = await t.createVoter(admin);
    // With the server's offline grace (VOTE_GRACE_MINUTES), so pages can say when a close's receipts follow.
    expect(await (await t.request("/election", { token: voter.token })).json()).toEqual({ ...SPEC_DEFAULTS, voteGraceMinutes: 10 });
    expect((await t.request("/election")).status).toBe(401);
    const open = await t.request("/election/public");
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ title: "Department Elections", subtitle: "CSC Leadership 2025" });
  });

  it("admins change them (audited, before and after); voters and observers cannot; bad input changes nothing", async () => {
    const t = await fresh();
    const admin = await t.adminToken();
    const voter = await t.createVoter(admin);
    const next = { ...SPEC_DEFAULTS, title: "SUG Elections", startTime: "2026-03-05T08:00:00.000Z", endTime: "2026-03-05T16:00:00.000Z", ballotOrder: "random", unopposed: "yes-no" };
    expect((await t.request("/admin/election", { method: "PUT", token: voter.token, json: next })).status).toBe(403);
    const observer = await t.request("/admin/users", {
      method: "POST",
      token: admin,
      json: { name: "Watcher", matricNumber: "2019/5570999", role: "observer", password: "observer-pass-1" },
    });
    expect(observer.status).toBe(201);
    const observerToken = (await t.login("2019/5570999", { password: "observer-pass-1" })).token;
    expect((await t.request("/admin/election", { method: "PUT", token: observerToken, json: next })).status).toBe(403);
    const bad = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...next, endTime: next.startTime } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe(messages.endAfterStart);
    expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...next, resultsVisibility: "never" } })).status).toBe(400);
    expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...next, unopposed: "always" } })).status).toBe(400);
    expect(await (await t.request("/election", { token: admin })).json()).toEqual({ ...SPEC_DEFAULTS, voteGraceMinutes: 10 });

    const ok = await t.request("/admin/election", { method: "PUT", token: admin, json: next });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual(next);
    expect(await (await t.request("/election/public")).json()).toMatchObject({ title: "SUG Elections" });
    const log = await t.database.client.execute("SELECT action, summary FROM audit_log WHERE action = 'election.update'");
    expect(log.rows).toHaveLength(1);
    expect(String(log.rows[0].summary)).toContain(`title: "Department Elections" -> "SUG Elections"`);
    expect(String(log.rows[0].summary)).toContain(`ballotOrder: "fixed" -> "random"`);
    expect(String(log.rows[0].summary)).toContain(`unopposed: "single" -> "yes-no"`);
  });
});

describe("results visibility 'after-close'", () => {
  async function hiddenElection() {
    const t = await fresh({ config: { realtime: { coalesceMs: 20, pollMs: 20 } } });
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin);
    const now = t.clock.now();
    // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
    const settings = { ...SPEC_DEFAULTS, ballotBatch: 1, startTime: new Date(now - 3_600_000).toISOString(), endTime: new Date(now + 3_600_000).toISOString(), resultsVisibility: "after-close" };
    expect((await t.request("/admin/election", { method: "PUT", token: admin, json: settings })).status).toBe(200);
    const voter = await t.createVoter(admin);
    return { t, admin, voter, position, candidates, end: Date.parse(settings.endTime) };
  }

  it("voters get 403 until the window ends and its position has closed; admins and observers always see live results", async () => {
    const { t, admin, voter, position, candidates, end } = await hiddenElection();
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);
    const refused = await t.request("/vote/results", { token: voter.token });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: "Results will be published when voting closes." });
    const live = (await (await t.request("/vote/results", { token: admin })).json()) as Results;
    expect(live.results[0].totalVotes).toBe(1);
    await t.request("/admin/users", { method: "POST", token: admin, json: { name: "Watcher", matricNumber: "2019/5570998", role: "observer", password: "observer-pass-1" } });
    const observer = (await t.login("2019/5570998", { password: "observer-pass-1" })).token;
    expect((await t.request("/vote/results", { token: observer })).status).toBe(200);
    t.clock.set(end - 1);
    expect((await t.request("/vote/results", { token: voter.token })).status).toBe(403);
    // The position ends with the window; an offline vote may still arrive within the grace.
    const grace = t.deps.config.voteGraceMs;
    t.clock.set(end + grace - 1);
    expect((await t.request("/vote/results", { token: voter.token })).status).toBe(403);
    t.clock.set(end + grace);
    expect((await t.request("/vote/results", { token: voter.token })).status).toBe(200);
  });

  it("the stream carries no tally to voters (snapshot or new-vote), the new-vote event still comes; admins get tallies", async () => {
    const { t, admin, voter, position, candidates } = await hiddenElection();
    const token = async (bearer: string) => ((await (await t.request("/realtime/token", { token: bearer })).json()) as { token: string }).token;
    const mine = readSse(await t.request(`/realtime?channel=ballot-updates&token=${await token(voter.token)}`));
    const staff = readSse(await t.request(`/realtime?channel=ballot-updates&token=${await token(admin)}`));
    try {
      await mine.waitFor(() => mine.of("snapshot").length === 1, 3_000, "voter snapshot");
      await staff.waitFor(() => staff.of("snapshot").length === 1, 3_000, "admin snapshot");
      expect(JSON.parse(mine.of("snapshot")[0].data)).toEqual({ withheld: true, message: messages.resultsHidden });
      expect(JSON.parse(staff.of("snapshot")[0].data)).toHaveProperty("results");
      expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[1]._id } })).status).toBe(201);
      // Admins' events carry the tallies (how fresh is the hub's business, tested in realtime/).
      await staff.waitFor(() => staff.of("new-vote").length >= 1, 3_000, "admin new-vote");
      expect((JSON.parse(staff.of("new-vote")[0].data) as Results).results[0].breakdown).toHaveLength(2);
      await mine.waitFor(() => mine.of("new-vote").length >= 1, 3_000, "voter new-vote");
      for (const e of mine.of("new-vote")) expect(JSON.parse(e.data)).toEqual({ withheld: true, message: messages.resultsHidden });
    } finally {
      await mine.close();
      await staff.close();
    }
  });
});

describe("ballot order 'random'", () => {
  it("gives each voter their own order, the same on every visit; 'fixed' keeps the baseline's", async () => {
    const t = await fresh();
    const admin = await t.adminToken();
    const names = ["A", "B", "C", "D", "E", "F", "G", "H"];
    await t.openElection(admin, names);
    const one = await t.createVoter(admin);
    const two = await t.createVoter(admin);
    const order = async (token: string) =>
      ((await (await t.request("/vote/positions", { token })).json()) as BallotPosition[])[0].candidates.map((c) => c.name);
    expect(await order(one.token)).toEqual(names);
    await t.request("/admin/election", { method: "PUT", token: admin, json: { ...SPEC_DEFAULTS, ballotOrder: "random" } });
    const first = await order(one.token);
    expect([...first].sort()).toEqual(names);
    expect(await order(one.token)).toEqual(first);
    // 8! orders: two voters alike by chance is 1 in 40,320.
    expect(await order(two.token)).not.toEqual(first);
    expect(await order(admin)).toEqual(names);
  });
});

describe("eligibility by groups", () => {
  it("an ineligible voter does not get the position, gets 403, and turnout counts eligible voters only", async () => {
    // A batch of 1: the one vote below is read in the tallies.
    const t = await fresh({ ballotBatch: 1 });
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"], "300L Rep");
    const patched = await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { eligibleGroups: ["300L"] } });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ eligibleGroups: ["300L"] });
    const inGroup = await voterIn(t, admin, "2020/5570901", ["300l"]);
    const outside = await voterIn(t, admin, "2020/5570902", ["200L"]);
    await voterIn(t, admin, "2020/5570903", []);

    const ballot = async (token: string) => ((await (await t.request("/vote/positions", { token })).json()) as BallotPosition[])[0];
    expect(await ballot(outside)).toMatchObject({ eligible: false });
    expect((await ballot(outside)).ballotTicket).toBeUndefined();
    expect((await ballot(inGroup)).eligible).toBeUndefined();

    const cast = (token: string) => t.request("/vote", { method: "POST", token, json: { positionId: position._id, candidateId: candidates[0]._id } });
    const refused = await cast(outside);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: "You are not eligible to vote for this position" });
    expect((await cast(inGroup)).status).toBe(201);

    const results = (await (await t.request("/vote/results", { token: admin })).json()) as Results;
    expect(results.totalRegisteredVoters).toBe(3);
    expect(results.results[0]).toMatchObject({ totalVotes: 1, eligibleVoters: 1 });
  });
});
