import { createClient } from "@libsql/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { createTestApp, type TestApp } from "../test/harness.ts";

// The same suite in process (app.request()) and through the production listener on a real port.
describe.each([
  { via: "app.request()", listen: false },
  { via: "the production listener", listen: true },
])("through $via", ({ listen }) => {
  let t: TestApp;
  let admin: string;
  beforeEach(async () => {
    // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
    t = await createTestApp({ listen, ballotBatch: 1 });
    admin = await t.adminToken();
  });
  afterEach(async () => t.close());

  const cast = (token: string, json: Record<string, unknown>, key?: string) =>
    t.request("/vote", { method: "POST", token, json, headers: key ? { "idempotency-key": key } : {} });

  async function counts() {
    const rs = await t.database.client.execute(
      "SELECT (SELECT count(*) FROM ballots) AS ballots, (SELECT count(*) FROM participations) AS participations, (SELECT coalesce(sum(vote_count), 0) FROM candidates) AS tally",
    );
    return rs.rows[0] as unknown as { ballots: number; participations: number; tally: number };
  }

  describe("casting", () => {
    it("records a vote, shows it in my-votes and results, and refuses a second one with 409", async () => {
      const { position, candidates } = await t.openElection(admin);
      const voter = await t.createVoter(admin);
      const first = await cast(voter.token, { positionId: position._id, candidateId: candidates[1]._id });
      expect(first.status).toBe(201);
      const firstBody = await first.json();
      const receipt = firstBody.receipt as string; // the counted vote's receipt code
      expect(receipt).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
      expect(firstBody).toEqual({
        message: messages.castVoteSuccess,
        vote: { positionId: position._id, candidateId: candidates[1]._id, candidateName: "Grace", receipt },
        receipt,
      });
      const second = await cast(voter.token, { positionId: position._id, candidateId: candidates[0]._id });
      expect(second.status).toBe(409);
      expect(await second.json()).toEqual({
        message: messages.alreadyVoted,
        vote: { positionId: position._id, candidateId: candidates[1]._id, candidateName: "Grace", receipt },
      });
      expect(await (await t.request("/vote/my-votes", { token: voter.token })).json()).toEqual([
        { positionId: position._id, candidateId: candidates[1]._id, candidateName: "Grace", receipt },
      ]);
      expect(await counts()).toEqual({ ballots: 1, participations: 1, tally: 1 });
    });

    it("refuses admins, unknown ids, and a candidate of another position", async () => {
      const a = await t.openElection(admin, ["Ada"], "President");
      const b = await t.openElection(admin, ["Linus"], "Secretary");
      const voter = await t.createVoter(admin);
      const asAdmin = await cast(admin, { positionId: a.position._id, candidateId: a.candidates[0]._id });
      expect(asAdmin.status).toBe(403);
      expect((await asAdmin.json()).message).toBe(messages.adminsCannotVote);
      expect((await cast(voter.token, { positionId: "nope", candidateId: a.candidates[0]._id })).status).toBe(404);
      expect((await cast(voter.token, { positionId: a.position._id, candidateId: "nope" })).status).toBe(404);
      const wrong = await cast(voter.token, { positionId: a.position._id, candidateId: b.candidates[0]._id });
      expect(wrong.status).toBe(400);
      expect((await wrong.json()).message).toBe(messages.candidateNotInPosition);
      const none = await cast(voter.token, { positionId: a.position._id });
      expect((await none.json()).message).toBe(messages.selectCandidate);
      expect(await counts()).toEqual({ ballots: 0, participations: 0, tally: 0 });
    });

    it("counts exactly one of 30 concurrent votes by one voter for one position", async () => {
      const { position, candidates } = await t.openElection(admin, ["Ada", "Grace", "Linus"]);
      const voter = await t.createVoter(admin);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          cast(voter.token, { positionId: position._id, candidateId: candidates[i % 3]._id }, i % 2 ? crypto.randomUUID() : undefined),
        ),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(29);
      expect(await counts()).toEqual({ ballots: 1, participations: 1, tally: 1 });
    });
  });

  describe("idempotency", () => {
    it("replays 20 concurrent requests with one key as one ballot, all succeeding", async () => {
      const { position, candidates } = await t.openElection(admin);
      const voter = await t.createVoter(admin);
      const key = crypto.randomUUID();
      const body = { positionId: position._id, candidateId: candidates[0]._id };
      const answers = await Promise.all(Array.from({ length: 20 }, () => cast(voter.token, body, key)));
      for (const a of answers) {
        expect(a.status).toBe(201);
        expect((await a.json()).vote.candidateName).toBe("Ada");
      }
      expect(await counts()).toEqual({ ballots: 1, participations: 1, tally: 1 });
    });

    it("replays the original answer later, even after the window closed; another body is 422", async () => {
      const { position, candidates } = await t.openElection(admin);
      const voter = await t.createVoter(admin);
      const key = crypto.randomUUID();
      const body = { positionId: position._id, candidateId: candidates[0]._id };
      const first = await (await cast(voter.token, body, key)).json();
      t.clock.advance(2 * 3_600_000);
      const replay = await cast(voter.token, body, key);
      expect(replay.status).toBe(201);
      expect(await replay.json()).toEqual(first);
      const other = await cast(voter.token, { ...body, candidateId: candidates[1]._id }, key);
      expect(other.status).toBe(422);
      expect((await other.json()).message).toBe(messages.idempotencyKeyReused);
    });

    it("remembers a refused vote's answer under its key", async () => {
      const { position, candidates } = await t.openElection(admin);
      const voter = await t.createVoter(admin);
      await cast(voter.token, { positionId: position._id, candidateId: candidates[0]._id });
      const key = crypto.randomUUID();
      const refused = await cast(voter.token, { positionId: position._id, candidateId: candidates[1]._id }, key);
      expect(refused.status).toBe(409);
      const replay = await cast(voter.token, { positionId: position._id, candidateId: candidates[1]._id }, key);
      expect(replay.status).toBe(409);
      expect((await replay.json()).message).toBe(messages.alreadyVoted);
    });

    it("keeps keys per user and refuses malformed keys", async () => {
      const { position, candidates } = await t.openElection(admin);
      const a = await t.createVoter(admin);
      const b = await t.createVoter(admin);
      const key = crypto.randomUUID();
      const body = { positionId: position._id, candidateId: candidates[0]._id };
      expect((await cast(a.token, body, key)).status).toBe(201);
      expect((await cast(b.token, body, key)).status).toBe(201);
      const bad = await cast(b.token, body, "not-a-uuid");
      expect(bad.status).toBe(400);
      expect((await bad.json()).message).toBe(messages.idempotencyKeyInvalid);
      expect(await counts()).toEqual({ ballots: 2, participations: 2, tally: 2 });
    });
  });

  describe("voting window", () => {
    async function windowed() {
      const start = Date.parse("2026-03-02T10:00:00Z");
      const end = Date.parse("2026-03-02T12:00:00Z");
      const position = await t.createPosition(admin, "Treasurer", new Date(start).toISOString(), new Date(end).toISOString());
      const candidate = await t.createCandidate(admin, position._id, "Ada");
      return { start, end, body: { positionId: position._id, candidateId: candidate._id } };
    }

    it("opens at the start instant and closes after the end instant (both inclusive)", async () => {
      const { start, end, body } = await windowed();
      const early = await t.createVoter(admin);
      const atStart = await t.createVoter(admin);
      const atEnd = await t.createVoter(admin);
      const late = await t.createVoter(admin);
      t.clock.set(start - 1);
      const before = await cast(early.token, body);
      expect(before.status).toBe(403);
      expect((await before.json()).message).toBe(messages.votingNotStarted);
      t.clock.set(start);
      expect((await cast(atStart.token, body)).status).toBe(201);
      t.clock.set(end);
      expect((await cast(atEnd.token, body)).status).toBe(201);
      t.clock.set(end + 1);
      const after = await cast(late.token, body);
      expect(after.status).toBe(403);
      expect((await after.json()).message).toBe(messages.votingEnded);
    });

    it("accepts a vote queued offline within the grace period only with a ticket issued before the close", async () => {
      const { end, body } = await windowed();
      const voter = await t.createVoter(admin);
      const other = await t.createVoter(admin);
      t.clock.set(end - 60_000);
      const ballot = await (await t.request("/vote/positions", { token: voter.token })).json();
      const ticket = ballot.find((p: { _id: string }) => p._id === body.positionId).ballotTicket as string;
      expect(ticket).toBeTruthy();
      const othersTicket = (await (await t.request("/vote/positions", { token: other.token })).json())[0].ballotTicket;

      t.clock.set(end + 9 * 60_000);
      expect((await cast(voter.token, body)).status).toBe(403); // no ticket
      expect((await cast(voter.token, { ...body, ballotTicket: othersTicket })).status).toBe(403); // not theirs
      expect((await cast(voter.token, { ...body, ballotTicket: ticket + "x" })).status).toBe(403); // forged
      expect((await cast(voter.token, { ...body, ballotTicket: ticket })).status).toBe(201);

      t.clock.set(end + 10 * 60_000 + 1);
      const late = await cast(other.token, { ...body, ballotTicket: othersTicket });
      expect(late.status).toBe(403);
      expect((await late.json()).message).toBe(messages.votingEnded);
    });

    it("issues no ticket for a position that is not open, nor to admins", async () => {
      const { start } = await windowed();
      const voter = await t.createVoter(admin);
      t.clock.set(start - 1);
      expect((await (await t.request("/vote/positions", { token: voter.token })).json())[0].ballotTicket).toBeUndefined();
      t.clock.set(start + 1);
      expect((await (await t.request("/vote/positions", { token: voter.token })).json())[0].ballotTicket).toBeTruthy();
      expect((await (await t.request("/vote/positions", { token: admin })).json())[0].ballotTicket).toBeUndefined();
    });
  });

  describe("results", () => {
    it("counts voters not admins, turnout by voters, breakdown sorted by votes", async () => {
      const a = await t.openElection(admin, ["Ada", "Grace"], "President");
      const b = await t.openElection(admin, ["Linus"], "Secretary");
      const voters = await Promise.all([1, 2, 3, 4].map(() => t.createVoter(admin)));
      await cast(voters[0].token, { positionId: a.position._id, candidateId: a.candidates[1]._id });
      await cast(voters[1].token, { positionId: a.position._id, candidateId: a.candidates[1]._id });
      await cast(voters[2].token, { positionId: a.position._id, candidateId: a.candidates[0]._id });
      await cast(voters[0].token, { positionId: b.position._id, candidateId: b.candidates[0]._id });
      const res = await (await t.request("/vote/results", { token: voters[3].token })).json();
      expect(res.totalRegisteredVoters).toBe(4);
      expect(res.totalVotesCast).toBe(3);
      const president = res.results.find((r: { positionTitle: string }) => r.positionTitle === "President");
      expect(president.totalVotes).toBe(3);
      expect(president.breakdown.map((e: { name: string; votes: number }) => [e.name, e.votes])).toEqual([
        ["Grace", 2],
        ["Ada", 1],
      ]);
      expect(president.breakdown[0]).toMatchObject({ candidateId: a.candidates[1]._id, photo: null });
    });

    it("needs a signed-in user", async () => {
      expect((await t.request("/vote/results")).status).toBe(401);
      expect((await t.request("/vote/positions")).status).toBe(401);
      expect((await t.request("/vote/my-votes")).status).toBe(401);
    });
  });

  describe("ballot secrecy against a copy of the database", () => {
    it("stores no voter next to a candidate in plain form", async () => {
      const { position, candidates } = await t.openElection(admin, ["Ada"]);
      const voter = await t.createVoter(admin);
      await cast(voter.token, { positionId: position._id, candidateId: candidates[0]._id }, crypto.randomUUID());
      const userId = (await (await t.request("/auth/profile", { token: voter.token })).json())._id as string;
      const tables = await t.database.client.execute("SELECT name FROM sqlite_master WHERE type = 'table'");
      for (const { name } of tables.rows) {
        const rows = await t.database.client.execute(`SELECT * FROM "${String(name)}"`);
        for (const row of rows.rows) {
          const text = JSON.stringify(row);
          const hasVoter = text.includes(userId);
          const hasChoice = text.includes(candidates[0]._id) || text.includes('"Ada"') || text.includes("Ada");
          expect(hasVoter && hasChoice, `table ${String(name)} links voter and choice`).toBe(false);
        }
      }
    });
  });

  describe("chat token", () => {
    it("is valid for 15 minutes", async () => {
      const voter = await t.createVoter(admin);
      const body = await (await t.request("/vote/chat-token", { token: voter.token })).json();
      expect(body.token).toBeTruthy();
      expect(Date.parse(body.expiresAt) - t.clock.now()).toBe(15 * 60_000);
    });
  });

  /**
   * Votes are checked against positions and candidates kept in memory
   * (services/votes/ballot-rules.ts). A change must still count from the next vote on: at once in this
   * process, within a second from another one (a second connection stands in for it).
   */
  const MINUTE = 60_000;

  describe("ballot rules in memory", () => {
    it("an admin's edit counts from the very next vote: a new candidate, a deleted one, a shortened window", async () => {
      const warm = await t.openElection(admin, ["Ada", "Grace"], "Treasurer");
      const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
      const [first, second, third, fourth] = [await t.createVoter(admin), await t.createVoter(admin), await t.createVoter(admin), await t.createVoter(admin)];
      // A vote elsewhere loads the rules into memory, before the changes below.
      expect((await cast(first.token, { positionId: warm.position._id, candidateId: warm.candidates[0]._id })).status).toBe(201);

      // The ballot is not frozen yet (no vote on it): a candidate is added and one removed.
      const added = await t.createCandidate(admin, position._id, "Linus");
      expect((await t.request(`/admin/candidates/${candidates[1]._id}`, { method: "DELETE", token: admin })).status).toBe(200);
      const removed = await cast(second.token, { positionId: position._id, candidateId: candidates[1]._id });
      expect(removed.status).toBe(404);
      expect((await removed.json()).message).toBe(messages.candidateNotFound);
      expect((await cast(second.token, { positionId: position._id, candidateId: added._id })).status).toBe(201);

      const end = new Date(t.clock.now() + MINUTE).toISOString();
      expect((await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { endTime: end } })).status).toBe(200);
      expect((await cast(third.token, { positionId: position._id, candidateId: candidates[0]._id })).status).toBe(201);
      t.clock.advance(2 * MINUTE);
      const late = await cast(fourth.token, { positionId: position._id, candidateId: candidates[0]._id });
      expect(late.status).toBe(403);
      expect((await late.json()).message).toBe(messages.votingEnded);
    });

    it("a change made by another process counts within a second", async () => {
      const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
      const [first, second] = [await t.createVoter(admin), await t.createVoter(admin)];
      expect((await cast(first.token, { positionId: position._id, candidateId: candidates[0]._id })).status).toBe(201);

      const other = createClient({ url: t.database.url });
      try {
        await other.execute("PRAGMA busy_timeout = 5000");
        await other.execute({ sql: "UPDATE positions SET end_time = ? WHERE id = ?", args: [t.clock.now() - MINUTE, position._id] });
      } finally {
        other.close();
      }
      // This process reads the catalog's counter again a second later, on the app's clock.
      t.clock.advance(1_000);
      const late = await cast(second.token, { positionId: position._id, candidateId: candidates[1]._id });
      expect(late.status).toBe(403);
      expect((await late.json()).message).toBe(messages.votingEnded);
    });
  });
});
