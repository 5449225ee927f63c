/**
 * A ballot's MAC: HMAC-SHA-256 under the server's `ballot` key of everything the ballot row
 * says (its random id, position, choice, candidate and, for multi and ranked ballots, its
 * marks as stored: shared `encodeMarks`). Computed when the vote is cast,
 * sealed into its pending row, and stored with the ballot by the mixer. Someone who can write
 * the database but lacks the key cannot edit a ballot, or forge one, without the integrity
 * check (services/accountability/ballot-integrity.ts) naming it. It says nothing about the
 * voter: the input holds no voter.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Keys } from "../../security/keys.ts";
import type { BallotKind as ChoiceKind } from "@evoting/shared";

export interface BallotFields {
  id: string;
  positionId: string;
  choice: ChoiceKind;
  candidateId: string | null;
  /** multi and ranked: the stored marks; absent or null otherwise (so a single choice's MAC is what it always was) */
  marks?: string | null;
}

export const ballotMac = (keys: Pick<Keys, "ballot">, b: BallotFields): string =>
  createHmac("sha256", keys.ballot).update(JSON.stringify(["ballot", b.id, b.positionId, b.choice, b.candidateId ?? null, ...(b.marks == null ? [] : [b.marks])])).digest("base64url");

export function ballotMacMatches(keys: Pick<Keys, "ballot">, b: BallotFields, mac: string | null): boolean {
  if (mac === null) return false;
  const given = Buffer.from(mac);
  const expected = Buffer.from(ballotMac(keys, b));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
