/**
 * Casting a vote. One write, grouped with other votes by the BatchWriter, does all of:
 *   1. claim the Idempotency-Key (when given): INSERT OR IGNORE;
 *   2. record participation (voter, position): INSERT OR IGNORE on its primary key — the
 *      database, not this code, is what allows one vote per voter and position;
 *   3. add the anonymous ballot (random id, position, candidate, hour) only if 2 inserted;
 *   4. bump the candidate's tally only if 3 inserted;
 *   5. when the vote did not count, rewrite our own key row to the 409 answer.
 * Each step is conditioned on `changes()` of the step before, so concurrent duplicates and
 * replays can never count twice, and a ballot never exists without its participation.
 */
import { randomUUID } from "node:crypto";
import type { CastVoteResponse, MyVote } from "@evoting/shared";
import { messages } from "@evoting/shared";
import type { Database } from "../db/client.ts";
import { fingerprint, seal, unseal, type Keys } from "../security/keys.ts";
import { bumpResultsVersionSql } from "./results.ts";

const HOUR = 3_600_000;

export interface VoteAnswer {
  status: 201 | 409;
  body: CastVoteResponse | { message: string };
}

export type StoredAnswer = { status: number; body: unknown };

const choiceContext = (voterId: string, positionId: string) => `choice:${voterId}:${positionId}`;
const answerContext = (voterId: string, key: string) => `idem:${voterId}:${key}`;

export const requestFingerprint = (keys: Keys, positionId: string, candidateId: string) =>
  fingerprint(keys, JSON.stringify([positionId, candidateId]));

/** The stored answer for an Idempotency-Key: `mismatch` when the key was used for another body. */
export async function findIdempotentAnswer(
  database: Database,
  keys: Keys,
  voterId: string,
  key: string,
  fp: string,
): Promise<StoredAnswer | "mismatch" | null> {
  const rs = await database.client.execute({
    sql: "SELECT fingerprint, sealed_body FROM idempotency_keys WHERE user_id = ? AND key = ?",
    args: [voterId, key],
  });
  const row = rs.rows[0];
  if (!row) return null;
  if (row.fingerprint !== fp) return "mismatch";
  return JSON.parse(unseal(keys, String(row.sealed_body), answerContext(voterId, key))) as StoredAnswer;
}

export interface CastVoteInput {
  voterId: string;
  positionId: string;
  candidateId: string;
  candidateName: string;
  idempotencyKey?: string;
  now: number;
}

export async function castVote(
  database: Database,
  keys: Keys,
  input: CastVoteInput,
): Promise<VoteAnswer | StoredAnswer | "mismatch"> {
  const { voterId, positionId, candidateId, candidateName, idempotencyKey: key, now } = input;
  const vote: MyVote = { positionId, candidateId, candidateName };
  const success: VoteAnswer = { status: 201, body: { message: messages.castVoteSuccess, vote } };
  const conflict: VoteAnswer = { status: 409, body: { message: messages.alreadyVoted } };
  const sealedChoice = seal(keys, JSON.stringify({ candidateId, candidateName }), choiceContext(voterId, positionId));
  const nonce = randomUUID();
  const fp = requestFingerprint(keys, positionId, candidateId);

  const participation = key
    ? {
        sql: "INSERT OR IGNORE INTO participations (voter_id, position_id, sealed_choice, created_at) SELECT ?, ?, ?, ? WHERE changes() = 1",
        args: [voterId, positionId, sealedChoice, now],
      }
    : {
        sql: "INSERT OR IGNORE INTO participations (voter_id, position_id, sealed_choice, created_at) VALUES (?, ?, ?, ?)",
        args: [voterId, positionId, sealedChoice, now],
      };
  const ballot = {
    sql: "INSERT INTO ballots (id, position_id, candidate_id, cast_hour) SELECT ?, ?, ?, ? WHERE changes() = 1",
    args: [randomUUID(), positionId, candidateId, Math.floor(now / HOUR) * HOUR],
  };
  const tally = { sql: "UPDATE candidates SET vote_count = vote_count + 1 WHERE id = ? AND changes() = 1", args: [candidateId] };

  const statements = key
    ? [
        {
          sql: "INSERT OR IGNORE INTO idempotency_keys (user_id, key, fingerprint, nonce, status, sealed_body, created_at) VALUES (?, ?, ?, ?, 201, ?, ?)",
          args: [voterId, key, fp, nonce, seal(keys, JSON.stringify(success), answerContext(voterId, key)), now],
        },
        participation,
        ballot,
        tally,
        {
          sql: "UPDATE idempotency_keys SET status = 409, sealed_body = ? WHERE user_id = ? AND key = ? AND nonce = ? AND changes() = 0",
          args: [seal(keys, JSON.stringify(conflict), answerContext(voterId, key)), voterId, key, nonce],
        },
      ]
    : [participation, ballot, tally];

  // One version bump per commit serves every vote in it.
  const results = await database.writer.submit(statements, [bumpResultsVersionSql]);
  if (key && results[0].rowsAffected === 0) {
    // Another request with this key committed first: answer as it did.
    const stored = await findIdempotentAnswer(database, keys, voterId, key, fp);
    return stored ?? conflict;
  }
  const ballotResult = results[key ? 2 : 1];
  return ballotResult.rowsAffected === 1 ? success : conflict;
}

/** The voter's own votes, unsealed: only the running server (holding the key) can do this. */
export async function myVotes(database: Database, keys: Keys, voterId: string): Promise<MyVote[]> {
  const rs = await database.client.execute({
    sql: "SELECT position_id, sealed_choice FROM participations WHERE voter_id = ?",
    args: [voterId],
  });
  return rs.rows.map((r) => {
    const positionId = String(r.position_id);
    const choice = JSON.parse(unseal(keys, String(r.sealed_choice), choiceContext(voterId, positionId))) as {
      candidateId: string;
      candidateName: string;
    };
    return { positionId, candidateId: choice.candidateId, candidateName: choice.candidateName };
  });
}
