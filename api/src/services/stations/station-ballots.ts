/**
 * A ballot taken at a polling station (issue 14), from sealed envelope to counted votes:
 *   1. open the envelope with the station session's key: the GCM tag proves that session's
 *      device made it, unchanged (nothing else holds the key);
 *   2. a ballot id seen before answers exactly as the first delivery did (exactly-once), even
 *      after the station was revoked;
 *   3. the station must be live and the device's cast instant inside the officer's sign-in;
 *   4. each position goes through the same castVote as a phone vote (first wins), with its
 *      own idempotency key so concurrent deliveries of one ballot count once;
 *   5. the answer (voter and per-position outcome, never a choice) is stored under the ballot
 *      id and the station's counter moves, in one write, only for the delivery that stored it.
 */
import { createDecipheriv } from "node:crypto";
import {
  canVote,
  choiceProblem,
  isEligible,
  messages,
  stationBallotSchema,
  stationTimingProblem,
  type Position,
  type SealedStationBallot,
  type StationBallot,
  type StationBallotAnswer,
  type StationChoice,
  type StationOutcome,
  type UnopposedMode,
} from "@evoting/shared";
import type { Database } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import type { Keys } from "../../security/keys.ts";
import { listPositions } from "../election/catalog.ts";
import { getElection } from "../election/settings.ts";
import { findRollEntry, findStation, findStationSession, isAssigned, sessionEnd, stationSessionKey } from "./stations.ts";
import { castVote, type VoteChoice } from "../votes/cast.ts";

/** How far the device's corrected clock may run ahead of the server's. */
export const STATION_CLOCK_SKEW_MS = 60_000;
const TAG_BYTES = 16;

export function openStationBallot(keys: Keys, sealed: SealedStationBallot): StationBallot | null {
  const iv = Buffer.from(sealed.iv, "base64url");
  const data = Buffer.from(sealed.data, "base64url");
  if (iv.length !== 12 || data.length <= TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", stationSessionKey(keys, sealed.sessionId), iv);
    decipher.setAAD(Buffer.from(sealed.sessionId));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    const parsed = stationBallotSchema.safeParse(JSON.parse(plain));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export type StationDelivery =
  | { kind: "answer"; answer: StationBallotAnswer; fresh: boolean; stationName: string }
  | { kind: "refused"; status: 400 | 403 | 404; message: string };

const refused = (status: 400 | 403 | 404, message: string): StationDelivery => ({ kind: "refused", status, message });

export interface DeliverInput {
  sealed: SealedStationBallot;
  idempotencyKey: string | undefined;
  officerId: string;
  now: number;
  graceMs: number;
}

export async function deliverStationBallot(deps: Pick<Deps, "database" | "keys" | "mixer">, input: DeliverInput): Promise<StationDelivery> {
  const { database, keys } = deps;
  const { sealed, officerId, now } = input;
  const session = await findStationSession(database, sealed.sessionId);
  if (!session) return refused(400, messages.stationBallotInvalid);
  const station = await findStation(database, session.stationId);
  if (!station) return refused(404, messages.stationNotFound);
  if (!(await isAssigned(database, station.id, officerId))) return refused(403, messages.stationNotAssigned);

  const ballot = openStationBallot(keys, sealed);
  if (!ballot) return refused(400, messages.stationBallotInvalid);
  if (input.idempotencyKey?.toLowerCase() !== ballot.ballotId.toLowerCase()) return refused(400, messages.stationBallotKeyMismatch);

  // A replay answers as the first delivery did, even once the station is revoked: the device
  // that lost that answer must learn its ballot counted.
  const stored = await database.get("SELECT answer FROM station_ballots WHERE id = ?", [ballot.ballotId]);
  if (stored) return { kind: "answer", answer: JSON.parse(String(stored.answer)) as StationBallotAnswer, fresh: false, stationName: station.name };
  if (station.revokedAt !== null) return refused(403, messages.stationRevoked);

  const end = await sessionEnd(database, session);
  const castAt = ballot.castAt;
  if (castAt + STATION_CLOCK_SKEW_MS < session.openedAt || castAt >= end || castAt > now + STATION_CLOCK_SKEW_MS) {
    return refused(403, messages.stationSessionInvalid);
  }

  const voter = await findRollEntry(database, ballot.voterId);
  if (!voter) return refused(404, messages.stationVoterNotFound);
  const [list, { unopposed }] = await Promise.all([listPositions(database.db), getElection(database)]);
  const positions = new Map(list.map((p) => [p._id, p]));
  const outcomes: StationOutcome[] = [];
  const seen = new Set<string>();
  for (const choice of ballot.choices) {
    if (seen.has(choice.positionId)) continue; // one choice per position: the first
    seen.add(choice.positionId);
    const position = positions.get(choice.positionId);
    const refusal = (message: string): StationOutcome => ({
      positionId: choice.positionId,
      positionTitle: position?.title ?? "",
      counted: false,
      message,
    });
    if (!position) {
      outcomes.push(refusal(messages.positionNotFound));
      continue;
    }
    const problem = choiceRefusal(voter.role, voter.groups, { ...position, unopposed }, choice, castAt, now, input.graceMs);
    if (problem) {
      outcomes.push(refusal(problem));
      continue;
    }
    const answer = await castVote(deps, {
      voterId: voter._id,
      positionId: position._id,
      choice: voteChoice(position, choice),
      stationId: station.id,
      idempotencyKey: `station:${ballot.ballotId}:${position._id}`,
      now,
    });
    const counted = answer !== "mismatch" && answer.status === 201;
    outcomes.push(counted ? { positionId: position._id, positionTitle: position.title, counted, message: messages.stationBallotCounted } : refusal(messages.stationVotedElsewhere));
  }

  const answer: StationBallotAnswer = {
    ballotId: ballot.ballotId,
    voter: { matricNumber: voter.matricNumber, name: voter.name },
    outcomes,
  };
  const anyCounted = outcomes.some((o) => o.counted) ? 1 : 0;
  const [inserted] = await database.writer.submit([
    { sql: "INSERT OR IGNORE INTO station_ballots (id, station_id, answer) VALUES (?, ?, ?)", args: [ballot.ballotId, station.id, JSON.stringify(answer)] },
    { sql: "UPDATE stations SET ballots_taken = ballots_taken + 1 WHERE id = ? AND changes() = 1 AND ? = 1", args: [station.id, anyCounted] },
  ]);
  return { kind: "answer", answer, fresh: inserted.rowsAffected === 1, stationName: station.name };
}

/** Why this position's choice is refused (the vote page's rules, at the device's cast instant), or null. */
function choiceRefusal(
  role: string,
  groups: string[],
  position: Position & { unopposed: UnopposedMode },
  choice: StationChoice,
  castAt: number,
  now: number,
  graceMs: number,
): string | null {
  if (!canVote(role)) return messages.adminsCannotVote;
  if (!isEligible(position.eligibleGroups ?? [], groups)) return messages.notEligible;
  const timing = stationTimingProblem(castAt, now, { startTime: Date.parse(position.startTime), endTime: Date.parse(position.endTime) }, graceMs);
  if (timing) return timing;
  if (choice.kind !== "candidate") {
    return choiceProblem(choice.kind, {
      candidateCount: position.candidates.length,
      allowAbstain: position.allowAbstain ?? false,
      unopposed: position.unopposed,
    });
  }
  if (!position.candidates.some((c) => c._id === choice.candidateId)) return messages.candidateNotInPosition;
  return null;
}

/** The choice as castVote takes it; the candidate was checked to stand for the position. */
function voteChoice(position: Position, choice: StationChoice): VoteChoice {
  if (choice.kind !== "candidate") return { kind: choice.kind };
  const candidate = position.candidates.find((c) => c._id === choice.candidateId)!;
  return { kind: "candidate", candidateId: candidate._id, candidateName: candidate.name };
}
