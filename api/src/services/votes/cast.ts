/**
 * Casting a vote. One write, grouped with other votes by the BatchWriter, does both of:
 *   1. record participation (voter, position): INSERT OR IGNORE on its primary key — the
 *      database, not this code, is what allows one vote per voter and position. A keyed vote
 *      carries its Idempotency-Key and fingerprint on this row, and is inserted only while no
 *      row holds that key (a participation or a refused answer);
 *      It is inserted only while the ballot still fits, judged in the same statement: the
 *      position is in the current, open election and every mark is a candidate of it;
 *   2. add the sealed PENDING ballot only if 1 inserted (`changes()`).
 * So concurrent duplicates and replays can never count twice, and a ballot never exists
 * without its participation. A keyed vote that did not count then stores its refusal (409)
 * under its key in a second write, unless the key already answers (services/votes/idempotency.ts).
 * The ballot and its tally are applied later, in a shuffled batch with other votes' and in
 * another commit, by the mixer (services/votes/mixer.ts): no commit lines a voter up with a ballot.
 *
 * Secrecy of what is stored (README, "Threat model"):
 * - the participation seals {kind, candidate id, ballot id} padded to one length; the
 *   candidate's NAME is looked up when the voter reads their votes, never stored with them;
 * - the idempotency fingerprint is an HMAC of (voter, key, body): no two voters share one;
 * - no answer is stored: a 409 is always 'already voted', and a 201 is rebuilt from the
 *   request (which the fingerprint proves is the same) and the participation holding the key
 *   (its ballot id gives the receipt). Refused answers keep the hour, never the millisecond,
 *   expire after 24 h and are capped per voter (services/votes/idempotency.ts). Rows written before
 *   this kept a sealed, padded answer, which is still read.
 *
 * A counted keyed vote is two statements and one voter-keyed row, as an unkeyed one.
 */
import { randomUUID } from "node:crypto";
import type { BallotKind, BallotMarks, CastVoteResponse, MyVote, VoteChoiceFields } from "@evoting/shared";
import { decodeMarks, encodeMarks, messages, talliedCandidate } from "@evoting/shared";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { fingerprint, type Keys } from "../../security/keys.ts";
import { CHOICE_RECORD_BYTES, choiceRecordBytes, sealPadded, unsealPadded } from "../../security/padded-seal.ts";
import { purgeAllExpired } from "./idempotency.ts";
import { ballotMac } from "./ballot-mac.ts";
import { pendingBallotStatement, type Mixer } from "./mixer.ts";
import { newBallot, receiptCode } from "./receipts.ts";
import { CURRENT_ELECTION_SQL, inCurrentPositions } from "../../db/elections.ts";
import { bumpResultsVersionSql, candidates, idempotencyKeys, participations } from "../../db/schema.ts";

import { choiceContext, HOUR, hourOf } from "./participation-seal.ts";

export { HOUR, hourOf };

export type ChoiceKind = BallotKind;

/**
 * What a vote chooses. 'Yes' on an unopposed position is its candidate; a referendum's is
 * 'yes'. Multi and ranked ballots carry their marks and the position's capacity (the largest
 * ballot it allows), which every stored record of the vote is padded to; so does a 'no' or an
 * abstention on such a position.
 */
export type VoteChoice =
  | { kind: "candidate"; candidateId: string; candidateName: string }
  | { kind: "no" | "abstain"; capacity?: number }
  | { kind: "yes" }
  | { kind: "multi" | "ranked"; marks: string[]; capacity: number };

/** A choice as a request names it (no candidate name): what the idempotency fingerprint covers. */
export interface ChoiceRef {
  kind: ChoiceKind;
  candidateId?: string;
  marks?: string[];
}

/** The body of POST /vote as far as the choice goes: a candidate id, marks, or 'yes' / 'no' / 'abstain'. */
export const choiceRefOf = (body: VoteChoiceFields): ChoiceRef => {
  if (body.choice) return { kind: body.choice };
  if (body.candidateIds) return { kind: "multi", marks: body.candidateIds };
  if (body.ranking) return { kind: "ranked", marks: body.ranking };
  return { kind: "candidate", candidateId: body.candidateId ?? "" };
};

/** The ballot marks of a choice, in the shared encoding (shared/src/ballot-methods.ts). */
export function marksOf(choice: VoteChoice): BallotMarks {
  if (choice.kind === "candidate") return { kind: "candidate", marks: [choice.candidateId] };
  if (choice.kind === "multi" || choice.kind === "ranked") return { kind: choice.kind, marks: choice.marks };
  return { kind: choice.kind, marks: [] };
}

/** The sealed record of a choice (participation and pending ballot): short keys, fixed length. */
export interface ChoiceRecord {
  /** kind */
  k: ChoiceKind;
  /** the tallied candidate (shared `talliedCandidate`): a single choice, a ranking's first preference; else null */
  c: string | null;
  /** ballot id (null only for a vote sealed before fixed-length sealing and re-sealed: services/votes/legacy-choices.ts) */
  b: string | null;
  /** multi and ranked: the marks, encoded and padded to the position's capacity (shared `encodeMarks`) */
  r?: string | null;
}

/**
 * The length every sealed record of a vote with this choice is padded to: one per position, so
 * a 'no' or an abstention on a multi or ranked position is padded to its largest ballot too.
 */
export const recordBytesOf = (choice: VoteChoice) =>
  "capacity" in choice && choice.capacity !== undefined ? choiceRecordBytes(choice.capacity) : CHOICE_RECORD_BYTES;

export interface VoteAnswer {
  status: 201 | 409;
  body: CastVoteResponse | { message: string };
}

export type StoredAnswer = { status: number; body: unknown };

const answerContext = (voterId: string, key: string) => `idem:${voterId}:${key}`;

/** What the fingerprint covers: the voter and the key as well as the body, so equal choices of two voters never match. */
const fingerprintInput = (voterId: string, key: string, positionId: string, choice: ChoiceRef) =>
  JSON.stringify(["vote", voterId, key, positionId, choice.kind, choice.candidateId ?? null, ...(choice.marks ? [choice.marks] : [])]);

export const requestFingerprint = (keys: Keys, voterId: string, key: string, positionId: string, choice: ChoiceRef) =>
  fingerprint(keys, fingerprintInput(voterId, key, positionId, choice));

export const sealChoice = (keys: Keys, voterId: string, positionId: string, record: ChoiceRecord, size = CHOICE_RECORD_BYTES) =>
  sealPadded(keys, record, choiceContext(voterId, positionId), size);

/** The 201 answer to a counted vote, built the same way when it is first sent and when a key replays it. */
const successAnswer = (vote: MyVote & { receipt: string }): VoteAnswer => ({
  status: 201,
  body: { message: messages.castVoteSuccess, vote, receipt: vote.receipt },
});

const conflictAnswer = (): VoteAnswer => ({ status: 409, body: { message: messages.alreadyVoted } });

/**
 * The voter's view of a choice. Candidate votes keep the baseline's shape (docs/product.md); multi and ranked name
 * every mark in order (the first as candidateId/Name); others name their kind.
 */
export function toMyVote(
  positionId: string,
  kind: ChoiceKind,
  candidateId: string | null,
  candidateName: string | null,
  marks: { ids: string[]; names: string[] } | null = null,
): MyVote {
  if (kind === "candidate") return { positionId, candidateId: candidateId ?? "", candidateName: candidateName ?? "" };
  if (kind === "multi" || kind === "ranked") {
    const ids = marks?.ids ?? [];
    const names = marks?.names ?? [];
    return { positionId, candidateId: ids[0] ?? "", candidateName: names[0] ?? "", candidateIds: ids, candidateNames: names };
  }
  return { positionId, candidateId: "", candidateName: "", choice: kind };
}

/**
 * Where a key's answer is: the participation it counted, else a refused row (or one written
 * before migration 0009), in one read.
 */
function keyAnswer(database: Database, voterId: string, key: string) {
  const { db } = database;
  const counted = db
    .select({ fingerprint: participations.idemFingerprint, status: sql<number>`201`.as("status"), sealedBody: sql<string>`''`.as("sealed_body") })
    .from(participations)
    .where(and(eq(participations.voterId, voterId), eq(participations.idemKey, key)));
  const refused = db
    .select({ fingerprint: idempotencyKeys.fingerprint, status: idempotencyKeys.status, sealedBody: idempotencyKeys.sealedBody })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, voterId), eq(idempotencyKeys.key, key)));
  return counted.unionAll(refused).limit(1);
}

/** A participation counted with the key (args: voter, key). */
const KEY_COUNTED = "SELECT 1 FROM participations WHERE voter_id = ? AND idem_key = ?";

/** No row holds the key yet: the condition a keyed vote is inserted under (castVote; args: voter, key, voter, key). */
const KEY_UNUSED = `NOT EXISTS (${KEY_COUNTED}) AND NOT EXISTS (SELECT 1 FROM idempotency_keys WHERE user_id = ? AND key = ?)`;

/**
 * The ballot still fits, judged inside the vote's own write: the position is in the current,
 * open election and every mark is a candidate of it. The route checked this against the rules
 * kept in memory, but a withdrawal, a deleted candidate or a new election may commit between
 * that check and this write, and a ballot naming a candidate that is gone could never be
 * applied (args: `ballotFitsArgs`).
 */
const BALLOT_FITS = `EXISTS (SELECT 1 FROM positions p JOIN elections e ON e.id = p.election_id
                        WHERE p.id = ? AND e.state = 'open' AND e.id = ${CURRENT_ELECTION_SQL})
  AND (SELECT count(*) FROM candidates WHERE position_id = ? AND id IN (SELECT value FROM json_each(?)))
    = (SELECT count(DISTINCT value) FROM json_each(?))`;
const ballotFitsArgs = (positionId: string, marks: readonly string[]) => {
  const list = JSON.stringify(marks);
  return [positionId, positionId, list, list];
};

/**
 * The answer an Idempotency-Key replays: `mismatch` when the key was used for another body,
 * null when there is none (no row, or the vote it counted is gone with its position).
 * `positionId` and `choice` are the replaying request's, equal to the first one's when the
 * fingerprint matches.
 */
export async function findIdempotentAnswer(
  database: Database,
  keys: Keys,
  voterId: string,
  key: string,
  positionId: string,
  choice: ChoiceRef,
): Promise<StoredAnswer | "mismatch" | null> {
  const [row] = await keyAnswer(database, voterId, key);
  if (!row) return null;
  if (row.fingerprint !== requestFingerprint(keys, voterId, key, positionId, choice)) return "mismatch";
  // A row written before answers were rebuilt keeps its sealed answer.
  if (row.sealedBody) return unsealPadded<StoredAnswer>(keys, row.sealedBody, answerContext(voterId, key));
  if (Number(row.status) !== 201) return conflictAnswer();
  // A 201 is the participation this key inserted (or, before migration 0009, a row written only
  // where it did), and (voter, position) holds one participation: read it as my-votes reads it.
  const vote = (await myVotes(database, keys, voterId)).find((v) => v.positionId === positionId);
  if (!vote?.receipt) return null;
  return successAnswer({ ...vote, receipt: vote.receipt });
}

export interface CastVoteInput {
  voterId: string;
  positionId: string;
  choice: VoteChoice;
  /** The polling station the vote was cast at; absent from the voter's own device. */
  stationId?: string | null;
  /** Multi and ranked: the marked candidates' names, for the answer (never stored). */
  markNames?: string[];
  idempotencyKey?: string;
  now: number;
}

export async function castVote(
  { database, keys, mixer }: { database: Database; keys: Keys; mixer: Mixer },
  input: CastVoteInput,
): Promise<VoteAnswer | StoredAnswer | "mismatch" | "stale"> {
  const { voterId, positionId, choice, idempotencyKey: key, now } = input;
  const ballot = marksOf(choice);
  const candidateId = talliedCandidate(ballot);
  const marks = choice.kind === "multi" || choice.kind === "ranked" ? encodeMarks(ballot, choice.capacity) : null;
  const size = recordBytesOf(choice);
  // The receipt is derived from the ballot's random id: shown now, recomputed by my-votes.
  const { ballotId, receipt } = newBallot(keys);
  const markNames = choice.kind === "multi" || choice.kind === "ranked" ? { ids: choice.marks, names: input.markNames ?? [] } : null;
  const shown = toMyVote(positionId, choice.kind, candidateId, choice.kind === "candidate" ? choice.candidateName : null, markNames);
  const success = successAnswer({ ...shown, receipt });
  const hour = hourOf(now);

  const ref: ChoiceRef = {
    kind: choice.kind,
    ...(choice.kind === "candidate" ? { candidateId: choice.candidateId } : {}),
    ...(markNames ? { marks: markNames.ids } : {}),
  };
  const fingerprinted = key ? requestFingerprint(keys, voterId, key, positionId, ref) : null;
  const record: ChoiceRecord = { k: choice.kind, c: candidateId, b: ballotId, ...(marks ? { r: marks } : {}) };
  const sealed = sealChoice(keys, voterId, positionId, record, size);
  const fits = ballotFitsArgs(positionId, ballot.marks);
  const participation = key
    ? {
        sql: `INSERT OR IGNORE INTO participations (voter_id, position_id, sealed_choice, station_id, idem_key, idem_fingerprint)
              SELECT ?, ?, ?, ?, ?, ? WHERE ${KEY_UNUSED} AND ${BALLOT_FITS}`,
        args: [voterId, positionId, sealed, input.stationId ?? null, key, fingerprinted, voterId, key, voterId, key, ...fits],
      }
    : {
        sql: `INSERT OR IGNORE INTO participations (voter_id, position_id, sealed_choice, station_id) SELECT ?, ?, ?, ? WHERE ${BALLOT_FITS}`,
        args: [voterId, positionId, sealed, input.stationId ?? null, ...fits],
      };
  const mac = ballotMac(keys, { id: ballotId, positionId, choice: choice.kind, candidateId, marks });
  const pending = pendingBallotStatement(keys, positionId, { k: choice.kind, c: candidateId, b: ballotId, m: mac, ...(marks ? { r: marks } : {}) }, size);
  // The turnout chart's count for this hour: a total that names no voter and no choice.
  const turnout = {
    sql: "INSERT INTO turnout_hours (hour, votes) SELECT ?, 1 WHERE changes() = 1 ON CONFLICT (hour) DO UPDATE SET votes = votes + 1",
    args: [hour],
  };

  // Tallies change only when the mixer applies a group of ballots; the version moves here for
  // what a vote itself changes in the results (votes cast, ballots waiting).
  // Expired refused answers are purged first in the commit, so an expired key counts as new.
  const results = await database.writer.submit([participation, pending, turnout], {
    ...(key ? { first: [purgeAllExpired(now)] } : {}),
    last: [bumpResultsVersionSql],
  });
  if (results[1].rowsAffected === 1) {
    if (mixer.immediate) await mixer.mix();
    return success;
  }
  // Not counted. A ballot that no longer fits is refused as such and stores nothing (a
  // keyed retry is judged afresh); the read only picks the answer, the write decided.
  if (!(await ballotFits(database, positionId, ballot.marks))) return "stale";
  if (!key || !fingerprinted) return conflictAnswer();
  // Not counted: the key's own refusal is stored unless a row already holds the key (a replay,
  // or another request with this key committed first), in which case that row answers.
  const [refusal] = await database.writer.submit(
    [
      {
        sql: `INSERT OR IGNORE INTO idempotency_keys (user_id, key, fingerprint, nonce, status, sealed_body, created_hour)
              SELECT ?, ?, ?, ?, 409, '', ? WHERE NOT EXISTS (${KEY_COUNTED})`,
        args: [voterId, key, fingerprinted, randomUUID(), hour, voterId, key],
      },
    ],
    { first: [purgeAllExpired(now)] },
  );
  if (refusal.rowsAffected === 1) return conflictAnswer();
  return (await findIdempotentAnswer(database, keys, voterId, key, positionId, ref)) ?? conflictAnswer();
}

async function ballotFits(database: Database, positionId: string, marks: readonly string[]): Promise<boolean> {
  // SQL: the condition the vote's write was inserted under, read as it is (no FROM).
  const rs = await database.client.execute({ sql: `SELECT ${BALLOT_FITS} AS fits`, args: ballotFitsArgs(positionId, marks) });
  return Number(rs.rows[0]?.fits ?? 0) === 1;
}

/** A voter's held choice with its ballot id (receipts are derived from it). */
export interface HeldVote {
  positionId: string;
  kind: ChoiceKind;
  candidateId: string | null;
  ballotId: string | null;
  /** multi and ranked: the marks in order */
  marks: string[];
  /** A verifiable position's vote: its ballot is on the position's board, not in `ballots`. */
  verifiable?: true;
}

/** The voter's own choices, unsealed: only the running server (holding the key) can do this. */
export async function heldVotes(database: Database, keys: Keys, voterId: string): Promise<HeldVote[]> {
  const rows = await database.db
    .select({ positionId: participations.positionId, sealedChoice: participations.sealedChoice })
    .from(participations)
    .where(and(eq(participations.voterId, voterId), inCurrentPositions(participations.positionId)));
  return rows.map((r) => unsealChoice(keys, voterId, r.positionId, r.sealedChoice));
}

/** A participation's sealed choice, read; `legacy` when it was sealed before fixed-length sealing ({candidateId, candidateName}, unpadded). */
export function unsealChoice(keys: Pick<Keys, "seal">, voterId: string, positionId: string, sealed: string): HeldVote & { legacy: boolean } {
  const record = unsealPadded<Partial<ChoiceRecord> & { candidateId?: string; v?: number }>(keys as Keys, sealed, choiceContext(voterId, positionId));
  // A verifiable position's participation (participation-seal.ts): no choice in it.
  if (record.v === 1) return { positionId, kind: "candidate", candidateId: null, ballotId: null, marks: [], verifiable: true, legacy: false };
  return {
    positionId,
    kind: record.k ?? "candidate",
    candidateId: record.k ? (record.c ?? null) : (record.candidateId ?? null),
    ballotId: record.b ?? null,
    marks: decodeMarks(record.r),
    legacy: record.k === undefined,
  };
}

/** The voter's own votes; candidate names are looked up (they are never sealed with the vote). */
export async function myVotes(database: Database, keys: Keys, voterId: string): Promise<MyVote[]> {
  const held = await heldVotes(database, keys, voterId);
  const ids = [...new Set(held.flatMap((h) => [...(h.candidateId ? [h.candidateId] : []), ...h.marks]))];
  const names = new Map<string, string>();
  if (ids.length > 0) {
    const rows = await database.db.select({ id: candidates.id, name: candidates.name }).from(candidates).where(inArray(candidates.id, ids));
    for (const r of rows) names.set(r.id, r.name);
  }
  return held.map((h): MyVote => {
    // A verifiable vote: the server keeps that it was cast, never its tracker (docs/security.md).
    if (h.verifiable) return { positionId: h.positionId, candidateId: "", candidateName: "", verifiable: true };
    return {
      ...toMyVote(h.positionId, h.kind, h.candidateId, h.candidateId ? (names.get(h.candidateId) ?? "") : null, {
        ids: h.marks,
        names: h.marks.map((id) => names.get(id) ?? ""),
      }),
      ...(h.ballotId ? { receipt: receiptCode(keys, h.ballotId) } : {}),
    };
  });
}
