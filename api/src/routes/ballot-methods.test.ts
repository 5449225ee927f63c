/**
 * Ballot methods through HTTP on a real database (docs/counting.md): several seats, ranked
 * (instant-runoff and Scottish STV), referendum; their validation, storage, results and BLT.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages, parseBlt, readBlt, type PositionResult } from "@evoting/shared";
import { checkBallotMatches } from "../services/accountability/ballot-match.ts";
import { checkTallies } from "../services/accountability/tally-check.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const HOUR = 3_600_000;
const GRACE = 10 * 60_000;

const cast = (token: string, json: Record<string, unknown>, key?: string) =>
  t.request("/vote", { method: "POST", token, json, headers: key ? { "idempotency-key": key } : {} });

/** An open position of `method` (window around the fake now) with these candidates. */
async function openPosition(fields: Record<string, unknown>, names: string[] = [], title = "Class Representatives") {
  const now = t.clock.now();
  const res = await t.request("/admin/positions", {
    method: "POST",
    token: admin,
    json: { title, startTime: new Date(now - HOUR).toISOString(), endTime: new Date(now + HOUR).toISOString(), ...fields },
  });
  expect(res.status).toBe(201);
  const position = (await res.json()) as { _id: string; method: string; seats: number };
  const candidates = [];
  for (const name of names) candidates.push(await t.createCandidate(admin, position._id, name));
  return { position, ids: candidates.map((c) => c._id) };
}

async function resultOf(positionId: string): Promise<PositionResult> {
  await t.deps.mixer.mix();
  const results = await (await t.request("/vote/results", { token: admin })).json();
  return (results.results as PositionResult[]).find((r) => r.positionId === positionId)!;
}

async function stored() {
  const rs = await t.database.client.execute(
    "SELECT (SELECT count(*) FROM ballots) AS ballots, (SELECT count(*) FROM participations) AS participations, (SELECT count(*) FROM pending_ballots) AS pending",
  );
  return rs.rows[0] as unknown as { ballots: number; participations: number; pending: number };
}

describe("positions with a method", () => {
  it("are the baseline's single choice without one, and refuse fields that do not fit the method", async () => {
    const { position } = await openPosition({}, ["Ada"]);
    expect(position).toMatchObject({ method: "single", seats: 1, question: null, passThreshold: 0.5 });
    const create = (json: Record<string, unknown>) =>
      t.request("/admin/positions", { method: "POST", token: admin, json: { title: "X", startTime: "2026-03-02T08:00:00Z", endTime: "2026-03-02T10:00:00Z", ...json } });
    const refusals: [Record<string, unknown>, string][] = [
      [{ seats: 3 }, messages.seatsNeedMethod],
      [{ method: "referendum" }, messages.questionRequired],
      [{ method: "multi", seats: 2, question: "Why?" }, messages.questionNeedsReferendum],
    ];
    for (const [json, message] of refusals) {
      const res = await create(json);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
    for (const json of [{ method: "plurality" }, { method: "multi", seats: 0 }, { method: "multi", seats: 1.5 }, { method: "referendum", question: "Q", passThreshold: 1 }]) {
      expect((await create(json)).status).toBe(400);
    }
    const listed = await (await t.request("/admin/positions", { token: admin })).json();
    expect(listed).toHaveLength(1); // nothing refused was stored
  });

  it("a new ranked or several-seat position without seats fills one seat", async () => {
    const ranked = await openPosition({ method: "ranked" }, [], "Sports Director");
    const multi = await openPosition({ method: "multi" }, [], "Class Reps");
    expect(ranked.position).toMatchObject({ method: "ranked", seats: 1 });
    expect(multi.position).toMatchObject({ method: "multi", seats: 1 });
    const listed = (await (await t.request("/admin/positions", { token: admin })).json()) as { title: string; seats: number }[];
    expect(listed.map((p) => [p.title, p.seats]).sort()).toEqual([
      ["Class Reps", 1],
      ["Sports Director", 1],
    ]);
  });

  it("freeze the method at the first vote", async () => {
    const { position, ids } = await openPosition({ method: "multi", seats: 2 }, ["Ada", "Grace", "Linus"]);
    const edit = (json: Record<string, unknown>) => t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json });
    expect((await edit({ seats: 3 })).status).toBe(200);
    const voter = await t.createVoter(admin);
    expect((await cast(voter.token, { positionId: position._id, candidateIds: [ids[0]] })).status).toBe(201);
    const frozen = await edit({ method: "ranked" });
    expect(frozen.status).toBe(409);
    expect((await frozen.json()).message).toBe(messages.methodFrozen);
    expect((await edit({ title: "Reps" })).status).toBe(200); // the title is not part of the method
    const listed = (await (await t.request("/admin/positions", { token: admin })).json()) as { method: string; seats: number }[];
    expect(listed[0]).toMatchObject({ method: "multi", seats: 3 });
  });
});

describe("several seats", () => {
  it("takes 1 to `seats` different candidates, elects the seats with most votes and counts ballots, not marks", async () => {
    const { position, ids } = await openPosition({ method: "multi", seats: 2 }, ["Ada", "Grace", "Linus"]);
    const votes = [[ids[0], ids[1]], [ids[0]], [ids[1], ids[0]], [ids[2]]];
    for (const candidateIds of votes) {
      const voter = await t.createVoter(admin);
      const res = await cast(voter.token, { positionId: position._id, candidateIds });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body.vote).toMatchObject({ positionId: position._id, candidateIds, candidateId: candidateIds[0] });
    }
    const result = await resultOf(position._id);
    expect(result).toMatchObject({ method: "multi", seats: 2, totalVotes: 4, elected: [ids[0], ids[1]], tied: [] });
    expect(Object.fromEntries(result.breakdown.map((b) => [b.name, b.votes]))).toEqual({ Ada: 3, Grace: 2, Linus: 1 });
    // The returning officer's recount agrees: each mark raised its candidate's tally once.
    expect(await checkTallies(t.database, t.deps.keys)).toMatchObject({ ok: true, tallyMismatches: [], choiceTallyMismatches: [] });
  });

  it("reports a tie for the last seat as a tie", async () => {
    const { position, ids } = await openPosition({ method: "multi", seats: 2 }, ["Ada", "Grace", "Linus"]);
    for (const candidateIds of [[ids[0], ids[1]], [ids[0], ids[2]]]) {
      const voter = await t.createVoter(admin);
      expect((await cast(voter.token, { positionId: position._id, candidateIds })).status).toBe(201);
    }
    const result = await resultOf(position._id);
    expect(result.elected).toEqual([ids[0]]);
    expect([...result.tied!].sort()).toEqual([ids[1], ids[2]].sort());
    const csv = await (await t.request("/admin/results.csv", { token: admin })).text();
    expect(csv).toContain("leading"); // provisional until the declaration
    expect(csv).not.toContain("elected");
    expect(csv.split(/\r?\n/).filter((l) => l.endsWith(",tie"))).toHaveLength(2);
  });

  it("refuses a bad ballot with a clear 400 and stores nothing", async () => {
    const { position, ids } = await openPosition({ method: "multi", seats: 2 }, ["Ada", "Grace", "Linus"]);
    const other = await openPosition({}, ["Mallory"], "Treasurer");
    const voter = await t.createVoter(admin);
    const refusals: [Record<string, unknown>, string][] = [
      [{ candidateIds: [ids[0], ids[0]] }, messages.duplicateMarks],
      [{ candidateIds: ids }, messages.tooManyMarks(2)],
      [{ candidateIds: [ids[0], other.ids[0]] }, messages.candidateNotInPosition],
      [{ candidateIds: [] }, messages.noMarks],
      [{ ranking: [ids[0]] }, messages.multiNeedsCandidates],
      [{ choice: "abstain" }, messages.abstainNotAllowed],
    ];
    for (const [json, message] of refusals) {
      const res = await cast(voter.token, { positionId: position._id, ...json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
    expect(await stored()).toEqual({ ballots: 0, participations: 0, pending: 0 });
    // A device that sends one candidate the old way casts a valid ballot of one mark.
    expect((await cast(voter.token, { positionId: position._id, candidateId: ids[2] })).status).toBe(201);
    expect((await resultOf(position._id)).breakdown.find((b) => b.candidateId === ids[2])?.votes).toBe(1);
  });
});

describe("ranked", () => {
  async function rankedElection(seats: number, rankings: (ids: string[]) => string[][]) {
    const { position, ids } = await openPosition({ method: "ranked", seats }, ["Ada", "Grace", "Linus", "Margaret"]);
    for (const ranking of rankings(ids)) {
      const voter = await t.createVoter(admin);
      const res = await cast(voter.token, { positionId: position._id, ranking });
      expect(res.status).toBe(201);
    }
    return { position, ids };
  }

  it("names no winner at the close until the mixer has applied the position's last ballots", async () => {
    await t.database.client.execute("UPDATE election_settings SET ballot_batch = 10 WHERE id = 1");
    const { position, ids } = await rankedElection(1, ([a, g, l, m]) => [[a], [a, l], [a], [g], [g, a], [l, g], [l, g], [m, l]]);
    t.clock.advance(HOUR + GRACE);
    const read = async () => ((await (await t.request("/vote/results", { token: admin })).json()).results as PositionResult[]).find((r) => r.positionId === position._id)!;
    // Closed, its 8 ballots still waiting for the mixer's pass: no count yet, no winner.
    const early = await read();
    expect(early).toMatchObject({ count: "first-preferences", totalVotes: 0, waiting: 8 });
    expect(early.elected).toBeUndefined();
    // Nor its ballots: the BLT is published with the count.
    const blt = () => t.request(`/admin/positions/${position._id}/ballots.blt`, { token: admin });
    expect((await blt()).status).toBe(409);
    expect(await t.deps.mixer.mix()).toBe(8);
    expect((await blt()).status).toBe(200);
    expect(await read()).toMatchObject({ count: "full", totalVotes: 8, elected: [ids[0]] });
  });

  it("shows first preferences while open, and the full instant-runoff count with its rounds once closed", async () => {
    // Ada 3, Grace 2, Linus 2, Margaret 1 (to Linus): Margaret out (Linus 3), then Grace (one ballot
    // to Ada, one with no further preference): Ada holds 4 of the 7 votes still in the count.
    const { position, ids } = await rankedElection(1, ([a, g, l, m]) => [[a], [a, l], [a], [g], [g, a], [l, g], [l, g], [m, l]]);
    const open = await resultOf(position._id);
    expect(open).toMatchObject({ method: "ranked", rule: "instant-runoff", count: "first-preferences", totalVotes: 8 });
    // When voting ends, so a page can say when the full count follows (after the offline grace).
    expect(open.endTime).toBe(new Date(t.clock.now() + HOUR).toISOString());
    expect(open.elected).toBeUndefined();
    expect(open.rounds).toBeUndefined();

    t.clock.advance(HOUR + GRACE);
    const closed = await resultOf(position._id);
    expect(closed).toMatchObject({ count: "full", elected: [ids[0]] });
    expect(closed.rounds!.map((r) => r.excluded)).toEqual([[], [ids[3]], [ids[1]]]);
    expect(closed.rounds!.at(-1)!.votes).toEqual({ [ids[0]]: 4, [ids[1]]: 0, [ids[2]]: 3, [ids[3]]: 0 });
    expect(closed.rounds!.at(-1)!.nonTransferable).toBe(1);
    expect(closed.rounds!.at(-1)!.decisions).toContainEqual({ candidateId: ids[0], outcome: "elected", reason: "majority" });
  });

  it("shows the full count while open when the admin chose the live count, and only for ranked positions", async () => {
    const { position, ids } = await rankedElection(1, ([a, g, l, m]) => [[a], [a, l], [a], [g], [g, a], [l, g], [l, g], [m, l]]);
    const edit = (json: Record<string, unknown>) => t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json });
    // A display choice: it may change after the first vote, unlike the method.
    const on = await edit({ liveCount: true });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ liveCount: true });
    // Results may be served a moment stale when recomputing is costly (a loaded machine): wait for the edit.
    await expect.poll(async () => (await resultOf(position._id)).count).toBe("full");
    const live = await resultOf(position._id);
    expect(live).toMatchObject({ count: "full", elected: [ids[0]] });
    expect(live.rounds).toHaveLength(3);
    expect((await edit({ liveCount: false })).status).toBe(200);
    await expect.poll(async () => (await resultOf(position._id)).count).toBe("first-preferences");
    expect((await resultOf(position._id)).rounds).toBeUndefined();

    const multi = await openPosition({ method: "multi", seats: 2 }, ["Ada"], "Reps");
    const refused = await t.request(`/admin/positions/${multi.position._id}`, { method: "PATCH", token: admin, json: { liveCount: true } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe(messages.liveCountNeedsRanked);
    const created = await t.request("/admin/positions", {
      method: "POST",
      token: admin,
      json: { title: "Chair", startTime: "2026-03-02T08:00:00Z", endTime: "2026-03-02T10:00:00Z", method: "ranked", liveCount: true },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ method: "ranked", liveCount: true });
    // Leaving the ranked method leaves the live count with it.
    const { _id } = (await (await t.request("/admin/positions", { token: admin })).json()).find((p: { title: string }) => p.title === "Chair");
    const switched = await t.request(`/admin/positions/${_id}`, { method: "PATCH", token: admin, json: { method: "multi", seats: 2 } });
    expect(await switched.json()).toMatchObject({ method: "multi", liveCount: false });
  });

  it("counts several seats by Scottish STV and exports the ballots as BLT once closed", async () => {
    const { position, ids } = await rankedElection(2, ([a, g, l, m]) => [[a, g], [a, g], [a, l], [a], [g], [l, m], [m, l]]);
    const blt = () => t.request(`/admin/positions/${position._id}/ballots.blt`, { token: admin });
    const early = await blt();
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe(messages.bltNotClosed);

    t.clock.advance(HOUR + GRACE);
    const result = await resultOf(position._id);
    expect(result).toMatchObject({ rule: "scottish-stv", quota: 3, count: "full" });
    // Ada's surplus of 1 moves at 1/4 per paper; then the lowest are excluded in turn.
    expect(result.rounds![1].votes[ids[1]]).toBe(1.5);
    expect(result.elected).toHaveLength(2);
    expect(result.elected![0]).toBe(ids[0]);
    expect(await checkTallies(t.database, t.deps.keys)).toMatchObject({ ok: true, tallyMismatches: [] });

    const res = await blt();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const parsed = parseBlt(await res.text());
    expect(parsed.seats).toBe(2);
    expect(parsed.candidates.map((c) => c.name)).toEqual(["Ada", "Grace", "Linus", "Margaret"]);
    const name = (id: string) => parsed.candidates.find((c) => c.id === id)!.name;
    expect(parsed.ballots.map((b) => b.map(name).join(">")).sort()).toEqual(["Ada", "Ada>Grace", "Ada>Grace", "Ada>Linus", "Grace", "Linus>Margaret", "Margaret>Linus"]);
    const single = await openPosition({}, ["Ada"], "Treasurer");
    expect((await t.request(`/admin/positions/${single.position._id}/ballots.blt`, { token: admin })).status).toBe(400);
    const voter = await t.createVoter(admin);
    expect((await t.request(`/admin/positions/${position._id}/ballots.blt`, { token: voter.token })).status).toBe(403);
  });

  it("publishes the BLT with the results: not while another position keeps 'after close' results hidden, then to admins and observers", async () => {
    await t.database.client.execute("UPDATE election_settings SET ballot_batch = 10 WHERE id = 1");
    const { position, ids } = await rankedElection(2, ([a, g, l, m]) => [[a, g], [g, a], [l, m], [m], [a]]);
    // A second position open for an hour longer keeps the results withheld under 'after close'.
    await openPosition({}, ["Ada"], "Treasurer").then(({ position: later }) =>
      t.request(`/admin/positions/${later._id}`, { method: "PATCH", token: admin, json: { endTime: new Date(t.clock.now() + 2 * HOUR).toISOString() } }),
    );
    const election = (await (await t.request("/election", { token: admin })).json()) as Record<string, unknown>;
    expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...election, resultsVisibility: "after-close" } })).status).toBe(200);
    const observer = await t.createObserver(admin);
    const blt = (token: string) => t.request(`/admin/positions/${position._id}/ballots.blt`, { token });

    t.clock.advance(HOUR + GRACE);
    expect(await t.deps.mixer.mix()).toBe(5);
    const withheld = await blt(admin);
    expect(withheld.status).toBe(409);
    expect((await withheld.json()).message).toBe(messages.bltNotPublished);

    t.clock.advance(HOUR);
    for (const token of [admin, observer]) {
      const res = await blt(token);
      expect(res.status).toBe(200);
      const file = readBlt(await res.text());
      expect(file.ballots.reduce((n, b) => n + b.weight, 0)).toBe(5);
      expect(file.candidates.map((c) => c.name)).toEqual(["Ada", "Grace", "Linus", "Margaret"]);
    }
    expect(ids).toHaveLength(4);
  });

  it("refuses duplicate ranks and strangers, replays an identical ranking and refuses another under the same key", async () => {
    const { position, ids } = await openPosition({ method: "ranked", seats: 1 }, ["Ada", "Grace"]);
    const voter = await t.createVoter(admin);
    const dup = await cast(voter.token, { positionId: position._id, ranking: [ids[0], ids[1], ids[0]] });
    expect(dup.status).toBe(400);
    expect((await dup.json()).message).toBe(messages.duplicateMarks);
    expect((await cast(voter.token, { positionId: position._id, ranking: [ids[0], "nope"] })).status).toBe(400);
    expect(await stored()).toEqual({ ballots: 0, participations: 0, pending: 0 });

    const key = "7f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5";
    const first = await cast(voter.token, { positionId: position._id, ranking: [ids[1], ids[0]] }, key);
    expect(first.status).toBe(201);
    const again = await cast(voter.token, { positionId: position._id, ranking: [ids[1], ids[0]] }, key);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect((await cast(voter.token, { positionId: position._id, ranking: [ids[0], ids[1]] }, key)).status).toBe(422);
    const mine = await (await t.request("/vote/my-votes", { token: voter.token })).json();
    expect(mine[0]).toMatchObject({ candidateIds: [ids[1], ids[0]], candidateNames: ["Grace", "Ada"] });
    expect(await stored()).toMatchObject({ participations: 1 });
  });
});

describe("referendum", () => {
  it("takes Yes, No and (if allowed) Abstain, has no candidates, and passes strictly above its threshold", async () => {
    const { position } = await openPosition({ method: "referendum", question: "Adopt the new constitution?", passThreshold: 2 / 3 });
    const noCandidates = new FormData();
    noCandidates.set("name", "Ada");
    noCandidates.set("positionId", position._id);
    const refused = await t.request("/admin/candidates", { method: "POST", token: admin, body: noCandidates });
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe(messages.referendumHasNoCandidates);

    const voters = await Promise.all([1, 2, 3, 4].map(() => t.createVoter(admin)));
    const abstain = await cast(voters[0].token, { positionId: position._id, choice: "abstain" });
    expect(abstain.status).toBe(400);
    expect((await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { allowAbstain: true } })).status).toBe(200);
    for (const [voter, choice] of [[voters[0], "yes"], [voters[1], "yes"], [voters[2], "no"], [voters[3], "abstain"]] as const) {
      const res = await cast(voter.token, { positionId: position._id, choice });
      expect(res.status).toBe(201);
      expect((await res.json()).vote).toMatchObject({ choice });
    }
    const result = await resultOf(position._id);
    // 2 of 3 is exactly two thirds: not strictly above.
    expect(result).toMatchObject({ method: "referendum", question: "Adopt the new constitution?", totalVotes: 4, referendum: { yes: 2, no: 1, abstentions: 1, passed: false } });
    const csv = await (await t.request("/admin/results.csv", { token: admin })).text();
    expect(csv).toContain("Yes,,2,66.67,not passing so far");
    expect(await checkTallies(t.database, t.deps.keys)).toMatchObject({ ok: true, choiceTallyMismatches: [] });
  });

  it("is the only method that takes 'yes'", async () => {
    const { position, ids } = await openPosition({}, ["Ada", "Grace"]);
    const voter = await t.createVoter(admin);
    for (const json of [{ choice: "yes" }, { candidateIds: [ids[0]] }, { ranking: [ids[0]] }]) {
      const res = await cast(voter.token, { positionId: position._id, ...json });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(messages.methodNeedsOwnBody);
    }
  });
});

describe("what is stored about a vote has one length whatever the ballot", () => {
  it("ranked and several-seat ballots of one position are stored at one length, padded to the largest ballot and no further", async () => {
    for (const [fields, bodies] of [
      [{ method: "ranked", seats: 1 }, (ids: string[]) => [{ ranking: [ids[0]] }, { ranking: ids }, { ranking: [ids[2], ids[1]] }]],
      [{ method: "multi", seats: 3 }, (ids: string[]) => [{ candidateIds: [ids[0]] }, { candidateIds: ids.slice(0, 3) }]],
    ] as const) {
      const { position, ids } = await openPosition(fields, ["Ada", "Grace", "Linus", "Margaret"], `P ${fields.method}`);
      for (const body of bodies(ids)) {
        const voter = await t.createVoter(admin);
        expect((await cast(voter.token, { positionId: position._id, ...body })).status).toBe(201);
      }
      await t.deps.mixer.mix();
      const sealed = await t.database.client.execute({ sql: "SELECT DISTINCT length(sealed_choice) AS n FROM participations WHERE position_id = ?", args: [position._id] });
      expect(sealed.rows).toHaveLength(1);
      const marks = await t.database.client.execute({ sql: "SELECT DISTINCT length(marks) AS n FROM ballots WHERE position_id = ?", args: [position._id] });
      expect(marks.rows).toHaveLength(1);
      // The largest ballot this position allows, written out: every candidate ranked, or `seats` of them marked.
      const largest = JSON.stringify(fields.method === "ranked" ? ids : ids.slice(0, fields.seats)).length;
      expect(Number(marks.rows[0].n)).toBe(largest);
    }
  });
});

describe("the integrity check on ballots with marks", () => {
  it("matches each participation's marks to its ballot, pending or applied, and names a ballot whose marks were swapped", async () => {
    const { position, ids } = await openPosition({ method: "ranked", seats: 1 }, ["Ada", "Grace", "Linus"]);
    const multi = await openPosition({ method: "multi", seats: 2 }, ["Alan", "Barbara"], "Committee");
    // Same first preference, so only the marks (not the tallied candidate) tell the two apart.
    for (const ranking of [[ids[0], ids[1], ids[2]], [ids[0], ids[2], ids[1]]]) {
      const voter = await t.createVoter(admin);
      expect((await cast(voter.token, { positionId: position._id, ranking })).status).toBe(201);
      expect((await cast(voter.token, { positionId: multi.position._id, candidateIds: multi.ids })).status).toBe(201);
    }
    expect(await checkBallotMatches(t.database, t.deps.keys)).toMatchObject({ ok: true, problems: [] });
    await t.deps.mixer.mix();
    expect(await stored()).toMatchObject({ ballots: 4, pending: 0 });
    expect(await checkBallotMatches(t.database, t.deps.keys)).toMatchObject({ ok: true, unsigned: 0, problems: [] });

    // Someone with write access but not the key swaps the two rankings (equal lengths, equal tallies).
    const rows = (await t.database.client.execute({ sql: "SELECT id, marks FROM ballots WHERE position_id = ? ORDER BY id", args: [position._id] })).rows;
    await t.database.client.batch([
      { sql: "UPDATE ballots SET marks = ? WHERE id = ?", args: [rows[1].marks, rows[0].id] },
      { sql: "UPDATE ballots SET marks = ? WHERE id = ?", args: [rows[0].marks, rows[1].id] },
    ]);
    expect(await checkTallies(t.database, t.deps.keys)).toMatchObject({ ok: true });
    const report = await checkBallotMatches(t.database, t.deps.keys);
    expect(report.ok).toBe(false);
    for (const row of rows) {
      expect(report.problems).toContain(`Ballot ${String(row.id)} (position ${position._id}) was changed or forged: its MAC does not match`);
      expect(report.problems).toContain(`Ballot ${String(row.id)} (position ${position._id}) does not hold the choice sealed in its participation`);
    }
    // Marks that are not the shared encoding are reported, not a crash.
    await t.database.client.execute({ sql: "UPDATE ballots SET marks = 'not json' WHERE id = ?", args: [rows[0].id] });
    expect((await checkBallotMatches(t.database, t.deps.keys)).problems).toContain(`Ballot ${String(rows[0].id)} (position ${position._id}) does not hold the choice sealed in its participation`);
  });
});
