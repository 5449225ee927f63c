/**
 * A ballot taken at a polling station, from sealed envelope to counted votes:
 *   1. open the envelope with the station session's key: the GCM tag proves that session's
 *      device made it, unchanged (nothing else holds the key);
 *   2. a ballot id seen before answers exactly as the first delivery did (exactly-once), even
 *      after the station was revoked;
 *   3. the station must be live and the device's cast instant inside the officer's sign-in,
 *      else the whole ballot is refused, and that refusal is stored like any answer;
 *   4. each position goes through the same castVote as a phone vote (first wins), with its
 *      own idempotency key so concurrent deliveries of one ballot count once;
 *   5. the answer (voter and per-position outcome, never a choice) is stored under the ballot
 *      id and the station's counter moves, in one write, only for the delivery that stored it.
 */
import { createDecipheriv } from "node:crypto";
import { HTTPException } from "hono/http-exception";
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
  type MethodBallotRules,
  type VoteChoiceFields,
} from "@evoting/shared";
import type { Deps } from "../../deps.ts";
import type { Keys } from "../../security/keys.ts";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { disputedBallots, stationBallots } from "../../db/schema.ts";
import { CURRENT_ELECTION_SQL } from "../../db/elections.ts";
import { listPositions } from "../election/catalog.ts";
import { findRollEntry, findStation, findStationSession, isAssigned, sessionEnd, stationSessionKey } from "./stations.ts";
import { castVote, type VoteChoice } from "../votes/cast.ts";
import { castVerifiableBallot, isVerifiablePosition, verifiableMessages } from "../belenios/verifiable.ts";
import { methodVoteChoice } from "../votes/ballot-rules.ts";

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

/**
 * `answer`: the ballot is settled (counted, or refused for its own reason); the device may let
 * it go. `refused`: nothing about the ballot was decided (wrong officer, unreadable envelope):
 * the device keeps it, except for an envelope that can never open (`final`).
 */
export type StationDelivery =
  | { kind: "answer"; answer: StationBallotAnswer; fresh: boolean; station: { id: string; name: string }; held?: boolean }
  | { kind: "refused"; status: 400 | 403 | 404 | 409; message: string; final: boolean };

const refused = (status: 400 | 403 | 404 | 409, message: string, final = false): StationDelivery => ({ kind: "refused", status, message, final });

export interface DeliverInput {
  sealed: SealedStationBallot;
  idempotencyKey: string | undefined;
  /** The officer delivering from a device; null for an admin importing a station's file (any station). */
  officerId: string | null;
  /** The committee accepted the held ballots of a device reported lost: they go through as if it were not. */
  committee?: boolean;
  now: number;
  graceMs: number;
}

export async function deliverStationBallot(deps: Pick<Deps, "database" | "keys" | "mixer" | "electionSettings" | "results" | "hub">, input: DeliverInput): Promise<StationDelivery> {
  const { database, keys } = deps;
  const { sealed, officerId, now } = input;
  const session = await findStationSession(database, sealed.sessionId);
  if (!session) return refused(400, messages.stationBallotInvalid, true);
  const row = await findStation(database, session.stationId);
  if (!row) return refused(404, messages.stationNotFound);
  if (officerId !== null && !(await isAssigned(database, row.id, officerId))) return refused(403, messages.stationNotAssigned);
  const station = { id: row.id, name: row.name };

  const ballot = openStationBallot(keys, sealed);
  if (!ballot) return refused(400, messages.stationBallotInvalid, true);
  if (input.idempotencyKey?.toLowerCase() !== ballot.ballotId.toLowerCase()) return refused(400, messages.stationBallotKeyMismatch);

  // A replay answers as the first delivery did, even once the station is revoked: the device
  // that lost that answer must learn its ballot counted.
  const stored = await storedAnswer(database, ballot.ballotId);
  if (stored) return { kind: "answer", answer: stored, fresh: false, station };

  const voter = await findRollEntry(database, ballot.voterId);
  const [list, { unopposed }] = await Promise.all([listPositions(database.db), deps.electionSettings.get()]);
  const positions = new Map(list.map((p) => [p._id, p]));
  // One choice per position: the first.
  const chosen = ballot.choices.filter((c, i) => ballot.choices.findIndex((d) => d.positionId === c.positionId) === i);
  const refusal = (positionId: string, message: string): StationOutcome => ({
    positionId,
    positionTitle: positions.get(positionId)?.title ?? "",
    counted: false,
    message,
  });

  // Refused whole, for the ballot's own reasons: settled and kept like any answer, so a
  // replay (or the same ballot from an exported file) is answered the same and counts nothing.
  const whole = (message: string) =>
    settle(database, station, {
      ballotId: ballot.ballotId,
      voter: voter ? { matricNumber: voter.matricNumber, name: voter.name } : { matricNumber: "", name: "" },
      outcomes: chosen.map((c) => refusal(c.positionId, message)),
    });
  if (row.revokedAt !== null) return whole(messages.stationRevoked);
  if (session.lostAt !== null && !input.committee) return hold(database, station, ballot.ballotId, sealed, chosen.map((c) => refusal(c.positionId, messages.stationBallotHeld)));
  const end = await sessionEnd(database, session);
  const castAt = ballot.castAt;
  if (castAt + STATION_CLOCK_SKEW_MS < session.openedAt || castAt >= end || castAt > now + STATION_CLOCK_SKEW_MS) {
    return whole(messages.stationSessionInvalid);
  }
  // Closed by its own device: only the ballots it said it still held can count; the key made no other in time.
  if (session.closedPending !== null && !session.closedPending.includes(ballot.ballotId)) return whole(messages.stationSessionInvalid);
  if (!voter) return whole(messages.stationVoterNotFound);

  const outcomes: StationOutcome[] = [];
  for (const choice of chosen) {
    const position = positions.get(choice.positionId);
    if (!position) {
      outcomes.push(refusal(choice.positionId, messages.positionNotFound));
      continue;
    }
    // A verifiable position takes only a Belenios ballot, encrypted on the station device with
    // the voter's credential (docs/verifiable.md); a plain choice cannot go in its ballot box.
    const verifiable = await isVerifiablePosition(database, position._id);
    if (verifiable || choice.kind === "belenios") {
      const problem = !verifiable
        ? verifiableMessages.notVerifiable
        : choice.kind !== "belenios" || !choice.ballot
          ? verifiableMessages.stationNeedsBallot
          : choiceRefusal(voter.role, voter.groups, { ...position, unopposed }, null, castAt, now, input.graceMs);
      outcomes.push(problem ? refusal(position._id, problem) : await castVerifiable(deps, position, voter._id, choice.ballot!, station.id, now));
      continue;
    }
    const problem = choiceRefusal(voter.role, voter.groups, { ...position, unopposed }, choice, castAt, now, input.graceMs);
    if (problem) {
      outcomes.push(refusal(position._id, problem));
      continue;
    }
    const cast = voteChoice(position, choice);
    const answer = await castVote(deps, {
      voterId: voter._id,
      positionId: position._id,
      choice: cast,
      ...("marks" in cast ? { markNames: cast.marks.map((id) => position.candidates.find((c) => c._id === id)?.name ?? "") } : {}),
      stationId: station.id,
      idempotencyKey: `station:${ballot.ballotId}:${position._id}`,
      now,
    });
    const counted = answer !== "mismatch" && answer !== "stale" && answer.status === 201;
    outcomes.push(
      counted
        ? { positionId: position._id, positionTitle: position.title, counted, message: messages.stationBallotCounted }
        : refusal(position._id, answer === "stale" ? messages.candidateNotFound : messages.stationVotedElsewhere),
    );
  }
  return settle(database, station, { ballotId: ballot.ballotId, voter: { matricNumber: voter.matricNumber, name: voter.name }, outcomes });
}

/**
 * A ballot of a device reported lost, held sealed for the committee: nothing counted, nothing
 * settled (no station_ballots row), so the committee's decision is the answer that stays. The
 * device may let it go: the server has it.
 *
 * Held only while the current election is open, judged in the insert itself: once the results
 * are declared the committee can decide nothing (the declared result is final), so a held row
 * would stay undecided for good. Such a ballot is refused with nothing stored; the device keeps
 * it, as evidence of what it took.
 */
async function hold(
  database: Database,
  station: { id: string; name: string },
  ballotId: string,
  sealed: SealedStationBallot,
  outcomes: StationOutcome[],
): Promise<StationDelivery> {
  const [inserted] = await database.writer.submit([
    {
      sql: `INSERT OR IGNORE INTO disputed_ballots (id, session_id, sealed, positions)
            SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM elections WHERE id = ${CURRENT_ELECTION_SQL} AND state = 'open')`,
      args: [ballotId, sealed.sessionId, JSON.stringify(sealed), JSON.stringify(outcomes.map((o) => o.positionId))],
    },
  ]);
  if (inserted.rowsAffected === 0 && (await database.db.$count(disputedBallots, eq(disputedBallots.id, ballotId))) === 0) {
    return refused(409, messages.stationBallotHeldTooLate);
  }
  const answer: StationBallotAnswer = { ballotId, voter: { matricNumber: "", name: "" }, outcomes };
  return { kind: "answer", answer, fresh: inserted.rowsAffected === 1, station, held: true };
}

/**
 * The committee's decision on every ballot held from a device reported lost: accepted, each
 * goes through the delivery it was held from (same checks, counted once); rejected, each is
 * settled as refused. Either way its sealed copy is deleted with the decision.
 */
export async function decideHeld(
  deps: Pick<Deps, "database" | "keys" | "mixer" | "electionSettings" | "results" | "hub">,
  sessionId: string,
  accept: boolean,
  now: number,
): Promise<{ station: { id: string; name: string }; answers: StationBallotAnswer[]; fresh: StationBallotAnswer[] } | null> {
  const { database } = deps;
  const session = await findStationSession(database, sessionId);
  const row = session ? await findStation(database, session.stationId) : null;
  if (!session || !row) return null;
  const station = { id: row.id, name: row.name };
  const held = await database.db
    .select({ id: disputedBallots.id, sealed: disputedBallots.sealed, positions: disputedBallots.positions })
    .from(disputedBallots)
    .where(eq(disputedBallots.sessionId, sessionId));
  const titles = new Map((await listPositions(database.db)).map((p) => [p._id, p.title]));
  const answers: StationBallotAnswer[] = [];
  const fresh: StationBallotAnswer[] = [];
  for (const r of held) {
    const ballotId = r.id;
    let result: StationDelivery;
    if (accept) {
      const sealed = JSON.parse(r.sealed) as SealedStationBallot;
      result = await deliverStationBallot(deps, { sealed, idempotencyKey: ballotId, officerId: null, committee: true, now, graceMs: Number.POSITIVE_INFINITY });
    } else {
      const outcomes = (JSON.parse(r.positions) as string[]).map((positionId) => ({ positionId, positionTitle: titles.get(positionId) ?? "", counted: false, message: messages.stationBallotRejected }));
      result = await settle(database, station, { ballotId, voter: { matricNumber: "", name: "" }, outcomes });
    }
    await database.writer.submit([{ sql: "DELETE FROM disputed_ballots WHERE id = ?", args: [ballotId] }]);
    if (result.kind !== "answer") continue;
    answers.push(result.answer);
    if (result.fresh) fresh.push(result.answer);
  }
  return { station, answers, fresh };
}

/** Stores the answer under the ballot id and moves the station's counter, once: `fresh` only for the delivery that stored it. */
async function settle(database: Database, station: { id: string; name: string }, answer: StationBallotAnswer): Promise<StationDelivery> {
  const anyCounted = answer.outcomes.some((o) => o.counted) ? 1 : 0;
  const [inserted] = await database.writer.submit([
    { sql: "INSERT OR IGNORE INTO station_ballots (id, station_id, answer) VALUES (?, ?, ?)", args: [answer.ballotId, station.id, JSON.stringify(answer)] },
    { sql: "UPDATE stations SET ballots_taken = ballots_taken + 1 WHERE id = ? AND changes() = 1 AND ? = 1", args: [station.id, anyCounted] },
  ]);
  if (inserted.rowsAffected === 1) return { kind: "answer", answer, fresh: true, station };
  // Another delivery of the same ballot stored its answer first: that one stands.
  return { kind: "answer", answer: (await storedAnswer(database, answer.ballotId)) ?? answer, fresh: false, station };
}

/** The answer stored for a station ballot, or null before its first delivery settled. */
async function storedAnswer(database: Database, ballotId: string): Promise<StationBallotAnswer | null> {
  const [row] = await database.db.select({ answer: stationBallots.answer }).from(stationBallots).where(eq(stationBallots.id, ballotId));
  return row ? (JSON.parse(row.answer) as StationBallotAnswer) : null;
}

/**
 * A verifiable position's ballot from a station: the same checks and refusals as a voter's own
 * device gets (services/belenios/verifiable.ts: a ballot that does not verify or is for another
 * position, a credential not on the list, a second ballot by a credential or a voter), each an
 * outcome with its message; nothing stored for a refused one. A replay of the same ballot (a
 * delivery whose answer was lost before it was stored) counts once.
 */
async function castVerifiable(
  deps: Pick<Deps, "database" | "keys" | "results" | "hub">,
  position: Position,
  voterId: string,
  ballot: string,
  stationId: string,
  now: number,
): Promise<StationOutcome> {
  try {
    const { replay } = await castVerifiableBallot(deps.database, deps.keys, position._id, voterId, ballot, now, stationId);
    if (!replay) {
      deps.results.changed();
      deps.hub.resultsChanged();
    }
    return { positionId: position._id, positionTitle: position.title, counted: true, message: messages.stationBallotCounted };
  } catch (error) {
    // Only a refusal of this ballot settles it; anything else (the database busy) leaves the
    // whole delivery unanswered, so the device keeps the ballot and sends it again.
    if (!(error instanceof HTTPException) || error.status >= 500) throw error;
    const { message } = (await error.getResponse().json()) as { message: string };
    // Phrased as the station phrases a voter who voted first elsewhere.
    const shown = message === verifiableMessages.alreadyVoted ? messages.stationVotedElsewhere : message;
    return { positionId: position._id, positionTitle: position.title, counted: false, message: shown };
  }
}

/**
 * Why this position's choice is refused (the vote page's rules, at the device's cast instant),
 * or null. `choice` null: only who may vote and when (a verifiable ballot checks its own content).
 */
function choiceRefusal(
  role: string,
  groups: string[],
  position: Position & { unopposed: UnopposedMode },
  choice: StationChoice | null,
  castAt: number,
  now: number,
  graceMs: number,
): string | null {
  if (!canVote(role)) return messages.adminsCannotVote;
  if (!isEligible(position.eligibleGroups ?? [], groups)) return messages.notEligible;
  const timing = stationTimingProblem(castAt, now, { startTime: Date.parse(position.startTime), endTime: Date.parse(position.endTime) }, graceMs);
  if (timing) return timing;
  if (!choice) return null;
  // Settled before this check by the caller: a Belenios ballot is only for a verifiable position.
  if (choice.kind === "belenios") return verifiableMessages.notVerifiable;
  const method = methodVoteChoice(methodRules(position), stationVoteFields(choice));
  if (typeof method === "string") return method;
  if (method) return null;
  if (choice.kind === "yes" || choice.kind === "multi" || choice.kind === "ranked") return messages.methodNeedsOwnBody;
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

/** A station choice as a vote body names it, for the ballot methods' one check (shared ballot-methods.ts). */
function stationVoteFields(choice: StationChoice): VoteChoiceFields {
  if (choice.kind === "multi") return { candidateIds: choice.candidateIds ?? [] };
  if (choice.kind === "ranked") return { ranking: choice.candidateIds ?? [] };
  if (choice.kind === "candidate") return { candidateId: choice.candidateId ?? "" };
  return choice.kind === "belenios" ? {} : { choice: choice.kind };
}

const methodRules = (position: Position): MethodBallotRules => ({
  method: position.method ?? "single",
  seats: position.seats ?? 1,
  question: position.question ?? null,
  passThreshold: position.passThreshold ?? 0.5,
  allowAbstain: position.allowAbstain ?? false,
  candidateIds: position.candidates.map((c) => c._id),
});

/** The choice as castVote takes it; it passed choiceRefusal, so its candidates stand for the position. */
function voteChoice(position: Position, choice: StationChoice): VoteChoice {
  const method = methodVoteChoice(methodRules(position), stationVoteFields(choice));
  if (method && typeof method !== "string") return method;
  if (choice.kind !== "candidate") return { kind: choice.kind as "no" | "abstain" };
  const candidate = position.candidates.find((c) => c._id === choice.candidateId)!;
  return { kind: "candidate", candidateId: candidate._id, candidateName: candidate.name };
}

/** The audit target of everything a station's devices do: the station, by id and name. */
export const stationTarget = (station: { id: string; name: string }) => `station:${station.id} "${station.name}"`;
