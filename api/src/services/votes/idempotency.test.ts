/**
 * Idempotency-Key answers: a refused vote's expires after 24 h and a voter's
 * refused answers are capped (before, every refused vote with a fresh key stored one row for
 * ever); a counted vote's key is on its participation and replays as long as the vote is held.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { sealPadded } from "../../security/padded-seal.ts";
import { MAX_REFUSED_ANSWERS } from "./idempotency.ts";

const HOUR = 3_600_000;
let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp({ config: { sessionMs: 96 * HOUR } }); // sessions outlive the days these tests span
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const cast = (token: string, json: object, key: string) =>
  t.request("/vote", { method: "POST", token, json, headers: { "idempotency-key": key } });
const rowsOf = async (matric: string) =>
  Number(
    (
      await t.database.client.execute({
        sql: "SELECT count(*) AS n FROM idempotency_keys k JOIN users u ON u.id = k.user_id WHERE u.matric_number = ?",
        args: [matric],
      })
    ).rows[0].n,
  );

/** A position open for three days around the fake now, so votes stay possible as time moves. */
async function longElection(names: string[]) {
  const now = t.clock.now();
  const position = await t.createPosition(admin, "President", new Date(now - HOUR).toISOString(), new Date(now + 72 * HOUR).toISOString());
  const candidates = [];
  for (const name of names) candidates.push(await t.createCandidate(admin, position._id, name));
  return { position, candidates };
}

describe("idempotency answers", () => {
  it("of a refused vote replay for at least 24 h, and are gone within 26 h once any keyed vote commits", async () => {
    const { position, candidates } = await longElection(["Ada", "Grace"]);
    const a = await t.createVoter(admin);
    const b = await t.createVoter(admin);
    const body = { positionId: position._id, candidateId: candidates[0]._id };
    const refusedBody = { ...body, candidateId: candidates[1]._id };
    const key = crypto.randomUUID();
    expect((await cast(a.token, body, crypto.randomUUID())).status).toBe(201);
    expect((await cast(a.token, refusedBody, key)).status).toBe(409);

    t.clock.advance(24 * HOUR);
    expect((await cast(a.token, refusedBody, key)).status).toBe(409); // still replayed
    expect((await cast(a.token, body, key)).status).toBe(422); // and still bound to its body
    expect(await cast(b.token, refusedBody, crypto.randomUUID())).toHaveProperty("status", 201);
    expect(await rowsOf(a.matricNumber)).toBe(1); // 24 h is not past: kept

    t.clock.advance(2 * HOUR);
    const other = await t.createVoter(admin);
    expect((await cast(other.token, body, crypto.randomUUID())).status).toBe(201); // someone's keyed vote purges
    expect(await rowsOf(a.matricNumber)).toBe(0);
    // The key is now new: another body is checked again (refused), not 422.
    const late = await cast(a.token, body, key);
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe(messages.alreadyVoted);
  });

  it("of a counted vote replay as long as the vote is held, from its participation", async () => {
    const { position, candidates } = await longElection(["Ada", "Grace"]);
    const a = await t.createVoter(admin);
    const key = crypto.randomUUID();
    const body = { positionId: position._id, candidateId: candidates[0]._id };
    const first = await cast(a.token, body, key);
    expect(first.status).toBe(201);
    const answer = await first.text();
    expect(await rowsOf(a.matricNumber)).toBe(0); // no row besides the participation
    const held = await t.database.client.execute({
      sql: "SELECT p.idem_key, p.idem_fingerprint FROM participations p JOIN users u ON u.id = p.voter_id WHERE u.matric_number = ?",
      args: [a.matricNumber],
    });
    expect(held.rows[0].idem_key).toBe(key);
    expect(String(held.rows[0].idem_fingerprint)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    t.clock.advance(48 * HOUR);
    expect((await cast((await t.createVoter(admin)).token, body, crypto.randomUUID())).status).toBe(201); // a purge ran
    const replay = await cast(a.token, body, key);
    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe(answer); // to the byte, receipt included
    const other = await cast(a.token, { ...body, candidateId: candidates[1]._id }, key);
    expect(other.status).toBe(422);
    expect((await other.json()).message).toBe(messages.idempotencyKeyReused);
  });

  it("count an expired refused key as new in the voter's own next commit, with no other vote between", async () => {
    const { position, candidates } = await longElection(["Ada", "Grace"]);
    const a = await t.createVoter(admin);
    const key = crypto.randomUUID();
    const body = { positionId: position._id, candidateId: candidates[0]._id };
    expect((await cast(a.token, body, crypto.randomUUID())).status).toBe(201);
    expect((await cast(a.token, { ...body, candidateId: candidates[1]._id }, key)).status).toBe(409);
    t.clock.advance(26 * HOUR);
    // The purge runs first in the commit, so the key is checked anew: another body is
    // 'already voted', not 422.
    const late = await cast(a.token, body, key);
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe(messages.alreadyVoted);
    expect(await rowsOf(a.matricNumber)).toBe(1); // the new refusal only
  });

  it(`keep at most ${MAX_REFUSED_ANSWERS} refused answers per voter, dropping the oldest, never the vote's`, async () => {
    const { position, candidates } = await longElection(["Ada", "Grace"]);
    const voter = await t.createVoter(admin);
    const body = { positionId: position._id, candidateId: candidates[0]._id };
    const voteKey = crypto.randomUUID();
    const counted = await (await cast(voter.token, body, voteKey)).json();
    const refusedKeys: string[] = [];
    for (let i = 0; i < MAX_REFUSED_ANSWERS + 8; i++) {
      const key = crypto.randomUUID();
      refusedKeys.push(key);
      expect((await cast(voter.token, { ...body, candidateId: candidates[1]._id }, key)).status).toBe(409);
      if (i === 7) t.clock.advance(HOUR); // the first 8 are an hour older than the rest
    }
    expect(await rowsOf(voter.matricNumber)).toBe(MAX_REFUSED_ANSWERS);
    // The vote's own answer still replays, and so does the latest refusal (422 for another body).
    expect(await (await cast(voter.token, body, voteKey)).json()).toEqual(counted);
    const latest = refusedKeys[refusedKeys.length - 1];
    expect((await cast(voter.token, body, latest)).status).toBe(422);
    // The 8 oldest refusals were dropped: their keys are checked again (refused, not 422).
    for (const key of refusedKeys.slice(0, 8)) expect((await cast(voter.token, body, key)).status).toBe(409);
  });

  it("store no answer: a 201 is rebuilt from the vote it counted, a 409 is 'already voted'", async () => {
    const { position, candidates } = await longElection(["Ada", "Grace"]);
    const voter = await t.createVoter(admin);
    const body = { positionId: position._id, candidateId: candidates[0]._id };
    const voteKey = crypto.randomUUID();
    const refusedKey = crypto.randomUUID();
    const counted = await (await cast(voter.token, body, voteKey)).json();
    expect(counted.receipt).toMatch(/^[0-9A-Z]{10}$/);
    expect((await cast(voter.token, { ...body, candidateId: candidates[1]._id }, refusedKey)).status).toBe(409);
    const rows = await t.database.client.execute("SELECT key, status, sealed_body FROM idempotency_keys");
    expect(rows.rows.map((r) => [r.key, Number(r.status), r.sealed_body])).toEqual([[refusedKey, 409, ""]]);
    // The replay is the first answer to the byte, receipt included.
    const replay = await cast(voter.token, body, voteKey);
    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe(JSON.stringify(counted));
    const refused = await cast(voter.token, { ...body, candidateId: candidates[1]._id }, refusedKey);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(messages.alreadyVoted);
  });

  it("still replay a counted vote's row written before migration 0009, rebuilt or with its sealed answer", async () => {
    const { position, candidates } = await longElection(["Ada"]);
    const voter = await t.createVoter(admin);
    const body = { positionId: position._id, candidateId: candidates[0]._id };
    const key = crypto.randomUUID();
    const first = await (await cast(voter.token, body, key)).text();
    // Store the key as the earlier code did: a 201 row in idempotency_keys, none on the participation.
    const voterId = String((await t.database.get("SELECT id FROM users WHERE matric_number = ?", [voter.matricNumber]))?.id);
    await t.database.client.batch(
      [
        {
          sql: `INSERT INTO idempotency_keys (user_id, key, fingerprint, nonce, status, sealed_body, created_hour)
                SELECT voter_id, idem_key, idem_fingerprint, 'earlier', 201, '', ? FROM participations WHERE voter_id = ?`,
          args: [Math.floor(t.clock.now() / HOUR) * HOUR, voterId],
        },
        { sql: "UPDATE participations SET idem_key = NULL, idem_fingerprint = NULL WHERE voter_id = ?", args: [voterId] },
      ],
      "write",
    );
    const rebuilt = await cast(voter.token, body, key);
    expect(rebuilt.status).toBe(201);
    expect(await rebuilt.text()).toBe(first);
    expect((await cast(voter.token, { ...body, candidateId: "another" }, key)).status).not.toBe(201);

    // Older still: the whole answer, sealed and padded.
    const old = { status: 201, body: { ...JSON.parse(first), message: "stored earlier" } };
    await t.database.client.execute({
      sql: "UPDATE idempotency_keys SET sealed_body = ? WHERE user_id = ? AND key = ?",
      args: [sealPadded(t.deps.keys, old, `idem:${voterId}:${key}`, 2048), voterId, key],
    });
    const replay = await cast(voter.token, body, key);
    expect(replay.status).toBe(201);
    expect(await replay.json()).toEqual(old.body);
  });
});
