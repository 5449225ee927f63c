/**
 * Races between a first vote and a change of the ballot, through HTTP on a real database. A
 * vote is checked against the ballot rules kept in memory; these tests let another request
 * commit between that check and the vote's own write (the window two requests meet in), and
 * prove the write itself refuses a ballot that no longer fits: nothing stored, a clear answer.
 */
import { describe, expect, it } from "vitest";
import { messages, SPEC_ELECTION, type Nomination } from "@evoting/shared";
import { freshTestApps, TINY_PNG, type TestApp } from "../test/harness.ts";

const fresh = freshTestApps();
const H = 3_600_000;
const { nominationsStart: _s, nominationsEnd: _e, ballotBatch: _b, ...BASE } = SPEC_ELECTION;

const json = async <T,>(res: Response) => (await res.json()) as T;
const count = async (t: TestApp, sql: string) => Number((await t.database.client.execute(sql)).rows[0].n);

/** Runs `between` once, after the next vote's rules were read and before its write. */
function betweenCheckAndWrite(t: TestApp, between: () => Promise<void>) {
  const rules = t.deps.ballotRules;
  const find = rules.find.bind(rules);
  let armed = true;
  rules.find = async (positionId: string, candidateId: string) => {
    const found = await find(positionId, candidateId);
    if (armed) {
      armed = false;
      await between();
    }
    return found;
  };
}

/** An open position of `method` whose candidates are approved applicants (so they can withdraw). */
async function positionOfApplicants(t: TestApp, admin: string, fields: Record<string, unknown>, applicants: number) {
  const now = t.clock.now();
  const put = await t.request("/admin/election", {
    method: "PUT",
    token: admin,
    // Nominations close no later than the election's start.
    json: { ...BASE, startTime: new Date(now + H).toISOString(), endTime: new Date(now + 9 * H).toISOString(), nominationsStart: new Date(now - H).toISOString(), nominationsEnd: new Date(now + H).toISOString() },
  });
  expect(put.status).toBe(200);
  const created = await t.request("/admin/positions", {
    method: "POST",
    token: admin,
    json: { title: "Class Representatives", startTime: new Date(now - H).toISOString(), endTime: new Date(now + H).toISOString(), ...fields },
  });
  expect(created.status).toBe(201);
  const position = await json<{ _id: string }>(created);
  const stand = [];
  for (let i = 0; i < applicants; i++) {
    const voter = await t.createVoter(admin);
    const form = new FormData();
    form.set("positionId", position._id);
    form.set("manifesto", "x");
    form.set("photo", new Blob([TINY_PNG], { type: "image/png" }), "me.png");
    const applied = await json<Nomination>(await t.request("/nominations", { method: "POST", token: voter.token, body: form }));
    const approved = await json<Nomination>(await t.request(`/admin/nominations/${applied._id}/approve`, { method: "POST", token: admin }));
    expect(approved.state).toBe("approved");
    stand.push({ token: voter.token, nominationId: applied._id, candidateId: approved.candidateId! });
  }
  return { position, stand };
}

describe("a withdrawal racing a first vote", () => {
  for (const [method, fields, ballot] of [
    ["single", {}, (ids: string[]) => ({ candidateId: ids[1] })],
    ["several seats", { method: "multi", seats: 2 }, (ids: string[]) => ({ candidateIds: [ids[0], ids[1]] })],
    ["ranked", { method: "ranked", seats: 1 }, (ids: string[]) => ({ ranking: [ids[0], ids[1]] })],
  ] as const) {
    it(`${method}: the vote naming the withdrawn candidate is refused and stores nothing; the position stays usable`, async () => {
      const t = await fresh({ ballotBatch: 1 });
      const admin = await t.adminToken();
      const { position, stand } = await positionOfApplicants(t, admin, fields, 3);
      const ids = stand.map((s) => s.candidateId);
      const voter = await t.createVoter(admin);
      let withdrawn = 0;
      betweenCheckAndWrite(t, async () => {
        withdrawn = (await t.request(`/nominations/${stand[1].nominationId}/withdraw`, { method: "POST", token: stand[1].token })).status;
      });
      const vote = await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, ...ballot(ids) } });
      expect(withdrawn).toBe(200);
      expect(vote.status).toBe(404);
      expect((await json<{ message: string }>(vote)).message).toBe(messages.candidateNotFound);
      expect(await count(t, "SELECT count(*) AS n FROM participations")).toBe(0);
      expect(await count(t, "SELECT count(*) AS n FROM pending_ballots")).toBe(0);
      expect(await count(t, "SELECT count(*) AS n FROM ballots")).toBe(0);
      // The voter votes again on the ballot as it is now, and the check passes.
      const remaining = method === "single" ? { candidateId: ids[2] } : method === "ranked" ? { ranking: [ids[0], ids[2]] } : { candidateIds: [ids[0], ids[2]] };
      expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, ...remaining } })).status).toBe(201);
      const check = await json<{ ok: boolean; problems: string[] }>(await t.request("/admin/integrity/check", { method: "POST", token: admin }));
      expect(check).toMatchObject({ ok: true, problems: [] });
    });
  }

  it("the integrity check names a pending ballot whose candidate no longer exists", async () => {
    const t = await fresh({ ballotBatch: 1, config: { mixer: { immediate: false } } });
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const voter = await t.createVoter(admin);
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[1]._id } })).status).toBe(201);
    // A database left by the race before it was closed: the candidate went after the vote's write.
    await t.database.client.execute({ sql: "DELETE FROM candidates WHERE id = ?", args: [candidates[1]._id] });
    await t.deps.mixer.mix();
    expect(await count(t, "SELECT count(*) AS n FROM pending_ballots")).toBe(1);
    const check = await json<{ ok: boolean; problems: string[] }>(await t.request("/admin/integrity/check", { method: "POST", token: admin }));
    expect(check.ok).toBe(false);
    expect(check.problems).toContainEqual(expect.stringMatching(new RegExp(`^Pending ballot .* \\(position ${position._id}\\) names candidate ${candidates[1]._id}, which no longer exists`)));
  });
});

describe("starting the next election racing a first vote", () => {
  const next = { title: "Union Elections 2027", subtitle: "Year two", startTime: "2026-03-03T08:00:00.000Z", endTime: "2026-03-03T16:00:00.000Z", copyPositions: true };

  it("a vote committed after the no-votes check and before the start's write: the start is refused, the vote stays in the open election", async () => {
    const t = await fresh({ ballotBatch: 1 });
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const voter = await t.createVoter(admin);
    const writer = t.database.writer;
    const submit = writer.submit.bind(writer);
    let voted = 0;
    writer.submit = async (statements, once) => {
      if (statements.some((s) => typeof s !== "string" && s.sql.includes("INSERT INTO elections")) && voted === 0) {
        voted = (await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status;
      }
      return submit(statements, once);
    };
    const start = await t.request("/admin/elections", { method: "POST", token: admin, json: next });
    expect(voted).toBe(201);
    expect(start.status).toBe(409);
    expect((await json<{ message: string }>(start)).message).toBe(messages.newElectionHasVotes);
    expect(await count(t, "SELECT count(*) AS n FROM elections")).toBe(1);
    expect(await count(t, "SELECT count(*) AS n FROM elections WHERE state = 'open'")).toBe(1);
    expect(await count(t, "SELECT count(*) AS n FROM positions")).toBe(1);
    const results = await json<{ results: { positionId: string }[] }>(await t.request("/vote/results", { token: admin }));
    expect(results.results.map((r) => r.positionId)).toEqual([position._id]);
  });

  it("a vote checked before the start and written after it is refused and stores nothing", async () => {
    const t = await fresh({ ballotBatch: 1 });
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const voter = await t.createVoter(admin);
    let started = 0;
    betweenCheckAndWrite(t, async () => {
      started = (await t.request("/admin/elections", { method: "POST", token: admin, json: next })).status;
    });
    const vote = await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } });
    expect(started).toBe(201);
    expect(vote.status).toBe(409);
    expect((await json<{ message: string }>(vote)).message).toBe(messages.electionDeclared);
    expect(await count(t, "SELECT count(*) AS n FROM participations")).toBe(0);
    expect(await count(t, "SELECT count(*) AS n FROM pending_ballots")).toBe(0);
  });
});
