/**
 * What a participation's seal is bound to, and the hour votes are counted by: shared by the
 * ordinary vote (cast.ts) and a verifiable position's (services/belenios), which both write a
 * participation.
 */
import type { Keys } from "../../security/keys.ts";
import { CHOICE_RECORD_BYTES, sealPadded } from "../../security/padded-seal.ts";

export const HOUR = 3_600_000;
export const hourOf = (ms: number) => Math.floor(ms / HOUR) * HOUR;

export const choiceContext = (voterId: string, positionId: string) => `choice:${voterId}:${positionId}`;

/**
 * A verifiable position's participation: that the voter voted there and nothing of the ballot,
 * whose tracker only the voter's device keeps (the board's ballot is public and, with the
 * server as a trustee, decryptable). Sealed at the one length of every participation, so
 * neither its value nor its length tells it from another.
 */
export const sealVerifiableParticipation = (keys: Keys, voterId: string, positionId: string) =>
  sealPadded(keys, { v: 1 }, choiceContext(voterId, positionId), CHOICE_RECORD_BYTES);
