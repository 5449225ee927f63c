/**
 * Ballot methods (docs/counting.md) and THE encoding of a ballot's marks: the API's vote
 * check, the sealed records, the mixer, the tallies, the counts and the PWA all go through
 * these functions, so a choice is read and written one way only.
 *
 * - single: the baseline's one mark (docs/product.md) (a candidate, or 'no' / 'abstain' where the position allows);
 * - multi: 1 to `seats` different candidates;
 * - ranked: 1 to all candidates, different, first = 1st preference;
 * - referendum: 'yes', 'no' or (if allowed) 'abstain'; no candidates.
 */
import { z } from "zod";
import { DEFAULT_PASS_THRESHOLD } from "./counting/referendum.ts";
import { messages } from "./messages.ts";

export const ballotMethods = ["single", "multi", "ranked", "referendum"] as const;
export type BallotMethod = (typeof ballotMethods)[number];

/** Seats a position may fill: more than a body of 50 is not a student election. */
export const MAX_SEATS = 50;
export const MAX_QUESTION_LENGTH = 500;

export interface PositionMethod {
  method: BallotMethod;
  seats: number;
  /** the referendum's question; null otherwise */
  question: string | null;
  /** referendum: the share of Yes among Yes + No it must pass strictly */
  passThreshold: number;
}

export const SINGLE_CHOICE: PositionMethod = { method: "single", seats: 1, question: null, passThreshold: DEFAULT_PASS_THRESHOLD };

/** The method fields of a position create or edit (all optional: a position made without them is the baseline's). */
export const positionMethodFields = {
  method: z.enum(ballotMethods, { error: "Voting method must be one of single, multi, ranked or referendum" }).optional(),
  seats: z
    .number({ error: "Seats must be a whole number" })
    .int({ error: "Seats must be a whole number" })
    .min(1, { error: "Seats must be at least 1" })
    .max(MAX_SEATS, { error: `Seats must be at most ${MAX_SEATS}` })
    .optional(),
  question: z
    .string({ error: "Question must be text" })
    .trim()
    .max(MAX_QUESTION_LENGTH, { error: `Question must be at most ${MAX_QUESTION_LENGTH} characters` })
    .optional(),
  passThreshold: z
    .number({ error: "Pass threshold must be a number" })
    .gt(0, { error: "Pass threshold must be between 0 and 1" })
    .lt(1, { error: "Pass threshold must be between 0 and 1" })
    .optional(),
};

/**
 * Ranked positions show first preferences while voting is open; `liveCount` shows the full count
 * (rounds, elected) live instead. A display choice, not part of how the position is counted, so it
 * does not freeze at the first vote.
 */
export const liveCountField = {
  liveCount: z.boolean({ error: "Live full count must be true or false" }).optional(),
};

/** The stored live-count choice after an edit; a problem message when it does not fit the method. */
export function resolveLiveCount(method: BallotMethod, current: boolean, input: boolean | undefined): boolean | string {
  if (input === true && method !== "ranked") return messages.liveCountNeedsRanked;
  return method === "ranked" ? (input ?? current) : false;
}

/** A complete method from stored values and an input's changes; a problem message if they do not fit together. */
export function resolveMethod(current: PositionMethod, input: Partial<Record<keyof PositionMethod, unknown>>): PositionMethod | string {
  const method = (input.method as BallotMethod | undefined) ?? current.method;
  const changedMethod = method !== current.method;
  const seats = (input.seats as number | undefined) ?? (changedMethod ? 1 : current.seats);
  const question = ((input.question as string | undefined) ?? (changedMethod ? null : current.question)) || null;
  const passThreshold = (input.passThreshold as number | undefined) ?? current.passThreshold;
  if (seats !== 1 && method !== "multi" && method !== "ranked") return messages.seatsNeedMethod;
  if (method === "referendum" && !question) return messages.questionRequired;
  if (method !== "referendum" && question) return messages.questionNeedsReferendum;
  return { method, seats, question, passThreshold };
}

/** What a ballot marks, as every layer keeps it. `marks` are candidate ids in the voter's order. */
export type BallotKind = "candidate" | "no" | "abstain" | "yes" | "multi" | "ranked";
export interface BallotMarks {
  kind: BallotKind;
  marks: string[];
}

/** A vote body's choice fields (POST /vote, station ballots). */
export interface VoteChoiceFields {
  candidateId?: string;
  candidateIds?: string[];
  ranking?: string[];
  choice?: "yes" | "no" | "abstain";
}

export interface MethodBallotRules extends PositionMethod {
  allowAbstain: boolean;
  /** the position's candidates' ids */
  candidateIds: readonly string[];
}

/**
 * The ballot a vote body casts on a position of this method, or the 400 message that refuses
 * it. Single-choice positions keep their own checks (election-rules.ts); a lone `candidateId`
 * on a multi or ranked position is a ballot of one mark (a device that knows no better still
 * casts a valid vote).
 */
export function methodBallot(rules: MethodBallotRules, body: VoteChoiceFields): BallotMarks | string {
  const given = [body.candidateId !== undefined, body.candidateIds !== undefined, body.ranking !== undefined, body.choice !== undefined].filter(Boolean).length;
  if (given !== 1) return messages.oneChoiceField;
  const known = new Set(rules.candidateIds);
  const checkIds = (ids: readonly string[], max: number, tooMany: string): string | null => {
    if (ids.length === 0) return messages.noMarks;
    if (new Set(ids).size !== ids.length) return messages.duplicateMarks;
    if (ids.length > max) return tooMany;
    if (ids.some((id) => !known.has(id))) return messages.candidateNotInPosition;
    return null;
  };
  switch (rules.method) {
    case "referendum": {
      if (body.choice === undefined) return messages.referendumNeedsChoice;
      if (body.choice === "abstain" && !rules.allowAbstain) return messages.abstainNotAllowed;
      return { kind: body.choice, marks: [] };
    }
    case "multi": {
      if (body.choice === "abstain") return rules.allowAbstain ? { kind: "abstain", marks: [] } : messages.abstainNotAllowed;
      const ids = body.candidateIds ?? (body.candidateId !== undefined ? [body.candidateId] : undefined);
      if (!ids) return messages.multiNeedsCandidates;
      return checkIds(ids, rules.seats, messages.tooManyMarks(rules.seats)) ?? { kind: "multi", marks: [...ids] };
    }
    case "ranked": {
      if (body.choice === "abstain") return rules.allowAbstain ? { kind: "abstain", marks: [] } : messages.abstainNotAllowed;
      const ids = body.ranking ?? (body.candidateId !== undefined ? [body.candidateId] : undefined);
      if (!ids) return messages.rankedNeedsRanking;
      return checkIds(ids, rules.candidateIds.length, messages.duplicateMarks) ?? { kind: "ranked", marks: [...ids] };
    }
    case "single":
      return messages.oneChoiceField; // not reached: single-choice ballots are checked by election-rules.ts
  }
}

/**
 * A position's capacity: the length of its largest marks list, JSON-encoded (`["id","id",...]`),
 * from its own candidate ids: all of them ranked, or the `seats` longest for multi. Every
 * stored ballot of the position is padded to it, and no further: the candidate list is frozen
 * at the first vote (api/src/services/election/ballot-freeze.ts), so the size is one per
 * position for all its ballots.
 */
export function marksCapacity(method: BallotMethod, seats: number, candidateIds: readonly string[]): number {
  const most = method === "multi" ? seats : method === "ranked" ? candidateIds.length : 1;
  const lengths = candidateIds.map((id) => JSON.stringify(id).length).sort((a, b) => b - a);
  const taken = lengths.slice(0, Math.max(1, most));
  // Brackets, the ids, the commas between them; an empty position still takes "[]".
  return 2 + taken.reduce((sum, n) => sum + n, 0) + Math.max(0, taken.length - 1);
}

/** Longest candidate id a position holds (the API makes UUIDs; the schemas cap ids at 64). */
export const MAX_CANDIDATE_ID_LENGTH = 64;
/** Most marks one ballot may carry (a ranking of every candidate of a large position). */
export const MAX_MARKS = 64;

/**
 * The marks as stored beside a ballot: a JSON array padded with spaces to the position's
 * capacity (`marksCapacity`), so every stored ballot of a position has one length whatever it
 * marks (JSON readers, SQLite's json_each included, ignore the trailing spaces). Null for a
 * ballot without marks lists (single choice, yes/no/abstain), as before this encoding existed.
 */
export function encodeMarks(ballot: BallotMarks, capacity: number): string | null {
  if (ballot.kind !== "multi" && ballot.kind !== "ranked") return null;
  const json = JSON.stringify(ballot.marks);
  return json + " ".repeat(Math.max(0, capacity - json.length));
}

export function decodeMarks(stored: string | null | undefined): string[] {
  if (!stored) return [];
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

/**
 * The candidate whose running tally a ballot raises when it raises one: the candidate of a
 * single choice, the first preference of a ranked ballot (live tallies of a ranked position
 * are first preferences); null for multi (each of its marks is raised) and yes/no/abstain.
 */
export function talliedCandidate(ballot: BallotMarks): string | null {
  if (ballot.kind === "candidate" || ballot.kind === "ranked") return ballot.marks[0] ?? null;
  return null;
}

/** Every candidate whose tally one ballot raises (the audit's recount and the mixer agree with this). */
export function talliedCandidates(ballot: BallotMarks): string[] {
  if (ballot.kind === "multi") return ballot.marks;
  const one = talliedCandidate(ballot);
  return one ? [one] : [];
}
