/**
 * The ballot batch, through HTTP: ballots reach the tallies only in groups of at least the
 * election's `ballotBatch` per position (the rest wait, and a position's remainder is applied
 * at its close), for every way a role sees tallies (voter, observer and admin results, the live
 * stream, the CSV, the sheet); and the attack it stops: an observer reading who voted beside the
 * tallies after every vote ties voters to choices when a tally moves by one ballot.
 */
import { describe, expect, it } from "vitest";
import { SPEC_ELECTION, messages, type ElectionSettings, type Results, type ResultsSheet } from "@evoting/shared";
import { readSse } from "../../realtime/sse-reader.ts";
import { freshTestApps, type TestApp } from "../../test/harness.ts";

const fresh = freshTestApps();

const observer = (t: TestApp, admin: string) => t.createObserver(admin);
const election = async (t: TestApp, token: string) => (await (await t.request("/election", { token })).json()) as ElectionSettings;
const results = async (t: TestApp, token: string) => (await (await t.request("/vote/results", { token })).json()) as Results;
/**
 * A snapshot that counts `cast` votes as cast (a costly recompute may serve one a little older):
 * the test mixer runs before a vote's answer, so it also holds every ballot applied by then.
 */
async function resultsAfter(t: TestApp, token: string, cast: number) {
  const seen = await resultsWhen(t, token, (r) => r.totalVotesCast >= cast);
  expect(seen.totalVotesCast).toBe(cast);
  return seen;
}
/** The first snapshot (within 5 s) for which `ready` holds, or the last one read. */
async function resultsWhen(t: TestApp, token: string, ready: (r: Results) => boolean) {
  let seen = await results(t, token);
  for (let tries = 0; !ready(seen) && tries < 100; tries++) {
    await new Promise((r) => setTimeout(r, 50));
    seen = await results(t, token);
  }
  return seen;
}
const put = (t: TestApp, token: string, json: unknown) => t.request("/admin/election", { method: "PUT", token, json });

describe("the ballotBatch setting", () => {
  it("is 10 on a fresh installation, and GET /election gives it to every signed-in user", async () => {
    const t = await fresh();
    const admin = await t.adminToken();
    const voter = await t.createVoter(admin);
    expect((await election(t, voter.token)).ballotBatch).toBe(10);
    expect((await election(t, await observer(t, admin))).ballotBatch).toBe(10);
    expect(await election(t, admin)).toEqual({ ...SPEC_ELECTION, voteGraceMinutes: 10 });
  });

  it("PUT /admin/election takes a whole number from 1; anything else is a clear 400 that changes nothing; left out, it keeps its value", async () => {
    const t = await fresh();
    const admin = await t.adminToken();
    const { ballotBatch: _omitted, ...withoutBatch } = await election(t, admin);
    for (const bad of [0, -3, 2.5, "10", null, 1_001]) {
      const res = await put(t, admin, { ...withoutBatch, title: "Changed", ballotBatch: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(messages.ballotBatchInvalid);
    }
    expect(await election(t, admin)).toEqual({ ...SPEC_ELECTION, voteGraceMinutes: 10 });

    const set = await put(t, admin, { ...withoutBatch, ballotBatch: 25 });
    expect(set.status).toBe(200);
    expect(((await set.json()) as ElectionSettings).ballotBatch).toBe(25);
    // A PUT without the field (a client that does not know it) keeps it.
    const kept = await put(t, admin, { ...withoutBatch, title: "SUG Elections" });
    expect(kept.status).toBe(200);
    expect(await election(t, admin)).toMatchObject({ title: "SUG Elections", ballotBatch: 25 });
    const log = await t.database.client.execute("SELECT summary FROM audit_log WHERE action = 'election.update' ORDER BY seq");
    expect(String(log.rows[0].summary)).toContain("ballotBatch: 10 -> 25");
    expect(String(log.rows[1].summary)).not.toContain("ballotBatch");
    // Voters and observers cannot change it.
    const voter = await t.createVoter(admin);
    expect((await put(t, voter.token, { ...withoutBatch, ballotBatch: 1 })).status).toBe(403);
    expect((await put(t, await observer(t, admin), { ...withoutBatch, ballotBatch: 1 })).status).toBe(403);
    expect((await election(t, admin)).ballotBatch).toBe(25);
  });
});

describe("tallies move in groups of the batch", () => {
  it("every role's view (voter, observer, admin, stream, CSV, sheet) shows no ballot of a group below the batch, and how many wait", async () => {
    const t = await fresh({ config: { realtime: { coalesceMs: 20, pollMs: 20 } } });
    const admin = await t.adminToken();
    const watcher = await observer(t, admin);
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const voters = [];
    for (let i = 0; i < 10; i++) voters.push(await t.createVoter(admin));
    const token = async (bearer: string) => ((await (await t.request("/realtime/token", { token: bearer })).json()) as { token: string }).token;
    const stream = readSse(await t.request(`/realtime?channel=ballot-updates&token=${await token(voters[0].token)}`));
    try {
      for (const voter of voters.slice(0, 9)) {
        expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);
      }
      // Nine cast, none counted yet: every view says so, and how many wait.
      for (const viewer of [voters[0].token, watcher, admin]) {
        const seen = await resultsAfter(t, viewer, 9);
        expect(seen.ballotBatch).toBe(10);
        expect(seen.results[0]).toMatchObject({ totalVotes: 0, waiting: 9 });
        expect(seen.results[0].breakdown.map((b) => b.votes)).toEqual([0, 0]);
      }
      const csv = await (await t.request("/admin/results.csv", { token: watcher })).text();
      expect(csv).toContain("Ada");
      expect(csv.split("\n").filter((line) => line.includes("Ada") || line.includes("Grace")).every((line) => !/,[1-9]\d*,/.test(line))).toBe(true);
      const sheet = (await (await t.request("/admin/results/sheet", { token: admin })).json()) as ResultsSheet;
      expect(sheet.results.results[0]).toMatchObject({ totalVotes: 0, waiting: 9 });
      await stream.waitFor(() => stream.of("new-vote").length > 0, 10_000, "a new-vote event");
      for (const e of [...stream.of("snapshot"), ...stream.of("new-vote")]) {
        expect((JSON.parse(e.data) as Results).results[0].totalVotes).toBe(0);
      }

      // The tenth completes a group: all ten reach the tallies together.
      expect((await t.request("/vote", { method: "POST", token: voters[9].token, json: { positionId: position._id, candidateId: candidates[1]._id } })).status).toBe(201);
      for (const viewer of [voters[0].token, watcher, admin]) {
        // A snapshot taken between the tenth vote's commit and the group's may be served a moment.
        const seen = await resultsWhen(t, viewer, (r) => r.results[0].totalVotes > 0);
        expect(seen.totalVotesCast).toBe(10);
        expect(seen.results[0].totalVotes).toBe(10);
        expect(seen.results[0]).not.toHaveProperty("waiting");
      }
      await stream.waitFor(() => stream.of("new-vote").some((e) => (JSON.parse(e.data) as Results).results[0].totalVotes === 10), 10_000, "the group on the stream");
      const totals = stream.of("new-vote").map((e) => (JSON.parse(e.data) as Results).results[0].totalVotes);
      expect(totals.every((n) => n === 0 || n === 10)).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it("applies a position's remainder at its close, whatever its size", async () => {
    const t = await fresh({ config: { voteGraceMs: 60_000 } });
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    for (let i = 0; i < 3; i++) {
      const voter = await t.createVoter(admin);
      expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[i % 2]._id } })).status).toBe(201);
    }
    expect((await resultsAfter(t, admin, 3)).results[0]).toMatchObject({ totalVotes: 0, waiting: 3 });
    // Past the end but inside the offline grace: still open for delivered votes, still waiting.
    t.clock.advance(3_600_000 + 30_000);
    await t.deps.mixer.mix();
    expect((await results(t, admin)).results[0]).toMatchObject({ totalVotes: 0, waiting: 3 });
    // Closed (end plus grace): the three are applied, the tallies final.
    t.clock.advance(31_000);
    expect(await t.deps.mixer.mix()).toBe(3);
    const closed = (await resultsWhen(t, admin, (r) => r.results[0].totalVotes > 0)).results[0];
    expect(closed.totalVotes).toBe(3);
    expect(closed).not.toHaveProperty("waiting");
    expect(Object.fromEntries(closed.breakdown.map((b) => [b.name, b.votes]))).toEqual({ Ada: 2, Grace: 1 });
  });

  it("a batch of 1 applies each ballot as it comes, and says nothing about groups", async () => {
    const t = await fresh({ ballotBatch: 1 });
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const voter = await t.createVoter(admin);
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);
    const seen = await resultsWhen(t, admin, (r) => r.results[0].totalVotes > 0);
    expect(seen).not.toHaveProperty("ballotBatch");
    expect(seen.results[0].totalVotes).toBe(1);
    expect(seen.results[0]).not.toHaveProperty("waiting");
  });

  it("lowering the batch applies what now makes a group", async () => {
    const t = await fresh();
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    for (let i = 0; i < 4; i++) {
      const voter = await t.createVoter(admin);
      expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);
    }
    const waiting = async () => Number((await t.database.client.execute("SELECT count(*) AS n FROM pending_ballots")).rows[0].n);
    expect(await waiting()).toBe(4);
    const { ballotBatch: _batch, ...settings } = await election(t, admin);
    expect((await put(t, admin, { ...settings, ballotBatch: 4 })).status).toBe(200);
    // The mixer's own timer may take the group first; either way, one pass later none waits.
    await t.deps.mixer.mix();
    expect(await waiting()).toBe(0);
    expect((await resultsWhen(t, admin, (r) => r.results[0].totalVotes > 0)).results[0].totalVotes).toBe(4);
  });
});

/**
 * The attack of a quiet moment: after every vote an observer reads Manage Voters' 'voted'
 * filter and the live tallies. Each time the tallies move, the voters who turned 'voted' since
 * the last move are the group the new ballots came from; a group of one is a voter linked to
 * their choice, and a group whose ballots all went one way links every one of them.
 */
async function watchVoting(ballotBatch: number, voterCount: number) {
  const t = await fresh({ ballotBatch });
  const admin = await t.adminToken();
  const watcher = await observer(t, admin);
  const { position, candidates } = await t.openElection(admin, ["Ada", "Grace", "Linus"]);
  const truth = new Map<string, string>();
  const voters = [];
  for (let i = 0; i < voterCount; i++) voters.push(await t.createVoter(admin));

  const votedNow = async () => {
    const page = (await (await t.request("/admin/voters?voted=yes&pageSize=100", { token: watcher })).json()) as { items: { matricNumber: string }[] };
    return new Set(page.items.map((v) => v.matricNumber));
  };
  // The attacker waits for a snapshot that accounts for every vote cast so far, in the tallies
  // or waiting (one taken just before a group was applied still shows it waiting).
  const talliesNow = async (cast: number) => {
    const accounted = (r: Results) => r.results[0].breakdown.reduce((n, b) => n + b.votes, 0) + (r.results[0].waiting ?? 0);
    const seen = await resultsWhen(t, watcher, (r) => r.totalVotesCast >= cast && accounted(r) >= cast);
    expect(accounted(seen)).toBe(cast);
    return new Map(seen.results[0].breakdown.map((b) => [b.name, b.votes]));
  };
  let seenVoted = new Set<string>();
  let seenTallies = await talliesNow(0);
  let unexplained: string[] = [];
  const groups: { voters: string[]; moved: number; oneWay: string | null }[] = [];
  for (const [i, voter] of voters.entries()) {
    const choice = candidates[(i * 7) % 3];
    truth.set(voter.matricNumber, choice.name);
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: choice._id } })).status).toBe(201);
    const voted = await votedNow();
    unexplained.push(...[...voted].filter((m) => !seenVoted.has(m)));
    seenVoted = voted;
    const tallies = await talliesNow(i + 1);
    const delta = [...tallies].map(([name, n]) => [name, n - (seenTallies.get(name) ?? 0)] as const).filter(([, d]) => d > 0);
    if (delta.length > 0) {
      const moved = delta.reduce((n, [, d]) => n + d, 0);
      groups.push({ voters: unexplained, moved, oneWay: delta.length === 1 ? delta[0][0] : null });
      unexplained = [];
      seenTallies = tallies;
    }
  }
  // Linked: the attacker's guess for a voter, certain, and right.
  const linked = groups.flatMap((g) => (g.oneWay ? g.voters.filter((m) => truth.get(m) === g.oneWay) : []));
  const waiting = (await resultsWhen(t, watcher, () => true)).results[0].waiting ?? 0;
  return { groups, linked, waiting };
}

describe("an observer watching who voted beside the tallies", () => {
  it("links every voter when each ballot is applied on its own (a batch of 1)", async () => {
    const { groups, linked } = await watchVoting(1, 8);
    expect(groups.map((g) => g.voters.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(linked).toHaveLength(8);
  });

  it("with the default batch of 10 sees the tallies move only in steps of 10 or more and links no voter", async () => {
    const { groups, linked, waiting } = await watchVoting(10, 24);
    // Two groups of ten (the attacker may see one a vote late: its voters are then eleven).
    expect(groups.map((g) => g.moved)).toEqual([10, 10]);
    for (const g of groups) {
      expect(g.voters.length).toBeGreaterThanOrEqual(10);
      expect(g.oneWay).toBeNull();
    }
    expect(linked).toEqual([]);
    // The rest wait for a group (or the close), fewer than 10.
    expect(waiting).toBe(4);
  });
});
