/**
 * Polling stations: what the admin screen, the station device and the API say to
 * each other, and the one timing rule both sides apply to a station ballot.
 *
 * A station ballot travels sealed: the device encrypts it (AES-256-GCM) under a key the server
 * derives for the officer's station session, so only that session's device could have made it
 * (the GCM tag authenticates it) and only the server can read it. The plaintext names the
 * voter, the instant the device cast it and each position's choice; it is padded to a fixed
 * size so its length says nothing about the choices (docs/decisions/0009-stolen-station-device.md).
 */
import { z } from "zod";
import { MAX_MATRIC_LENGTH, MAX_NAME_LENGTH } from "./constants.ts";
import { messages } from "./messages.ts";
import { MAX_MARKS } from "./ballot-methods.ts";

/** Most ballots one file (or one device's close) carries: a station's whole polling day, with room to spare. */
export const MAX_EXPORTED_BALLOTS = 10_000;

const requiredString = (message: string) => z.string({ error: message }).trim().min(1, { error: message });

export const createStationSchema = z.object({
  name: requiredString(messages.stationNameRequired).max(MAX_NAME_LENGTH),
});
export type CreateStationInput = z.infer<typeof createStationSchema>;

export const assignOfficerSchema = z.object({
  matricNumber: requiredString(messages.matricRequired).max(MAX_MATRIC_LENGTH),
});

/**
 * Opening (or unlocking) a station on a device: the officer proves themselves again with their
 * password, so a sign-in token left on a device never opens a station by itself.
 */
export const openStationSchema = z.object({
  stationId: z.string().min(1).max(64),
  password: z.string({ error: messages.passwordRequired }).min(1, messages.passwordRequired).max(128),
});

/**
 * A verifiable position's Belenios ballot in a station ballot, at most: the vote page's own
 * limit (schemas.ts). One with 5 candidates is some 12 KB, with 20 some 36 KB.
 */
export const MAX_STATION_VERIFIABLE_BALLOT = 200_000;

/**
 * The sealed data at most (base64url). Ordinary choices make a few kilobytes; each verifiable
 * position adds its encrypted ballot, so a ballot of several large verifiable positions fits.
 */
export const MAX_SEALED_STATION_BALLOT = 1_000_000;

/** A ballot as the device sends it: the session it was cast in, the IV and ciphertext+tag (base64url). */
export const sealedStationBallotSchema = z.object({
  sessionId: z.string().min(1).max(64),
  iv: z.string().min(16).max(16),
  data: z.string().min(1).max(MAX_SEALED_STATION_BALLOT),
});
export type SealedStationBallot = z.infer<typeof sealedStationBallotSchema>;

/** Most positions a station ballot may carry (an election has a handful). */
export const MAX_STATION_CHOICES = 50;
/** Plaintexts are padded to a multiple of this many bytes before sealing. */
export const STATION_BALLOT_BLOCK = 1024;

export const stationChoiceSchema = z.object({
  positionId: z.string().min(1).max(64),
  /**
   * 'yes', 'multi' and 'ranked' are the ballot methods' (ballot-methods.ts). 'belenios': a
   * verifiable position's ballot, encrypted on the device with the voter's credential
   * (docs/verifiable.md): the envelope never holds that position's choice in the clear.
   */
  kind: z.enum(["candidate", "no", "abstain", "yes", "multi", "ranked", "belenios"]),
  candidateId: z.string().min(1).max(64).optional(),
  /** multi and ranked: the marks, in the voter's order */
  candidateIds: z.array(z.string().min(1).max(64)).max(MAX_MARKS).optional(),
  /** belenios: the ballot as `belenios-tool election generate-ballot` prints it */
  ballot: z.string().min(1).max(MAX_STATION_VERIFIABLE_BALLOT).optional(),
});
export type StationChoice = z.infer<typeof stationChoiceSchema>;

export const stationBallotSchema = z.object({
  v: z.literal(1),
  ballotId: z.uuid(),
  voterId: z.string().min(1).max(64),
  /** Server time at casting, as the device reckons it (its clock corrected at sign-in). */
  castAt: z.number().int().nonnegative(),
  choices: z.array(stationChoiceSchema).min(1).max(MAX_STATION_CHOICES),
  /** Filler to the next block: not read. */
  pad: z.string().max(STATION_BALLOT_BLOCK * 2).optional(),
});
export type StationBallot = z.infer<typeof stationBallotSchema>;

export interface StationOfficer {
  _id: string;
  name: string;
  matricNumber: string;
  role: string;
}

export interface StationInfo {
  _id: string;
  name: string;
  createdAt: string;
  revokedAt: string | null;
  ballotsTaken: number;
  officers: StationOfficer[];
}

export interface StationTally {
  stations: { _id: string; name: string; revoked: boolean; ballotsTaken: number }[];
  total: number;
}

/**
 * A device a station was opened on (one station session), for the admin: who opened it, when
 * it closed, whether it was reported lost, and the ballots held from it for the committee,
 * counted per position (never a choice).
 */
export interface StationDevice {
  _id: string;
  station: { _id: string; name: string };
  officer: { name: string; matricNumber: string };
  openedAt: string;
  closedAt: string | null;
  lostAt: string | null;
  held: { total: number; positions: { positionId: string; positionTitle: string; ballots: number }[] };
}

/** Closing a station on its device: the ids of the ballots of this session it still holds (undelivered). */
export const closeStationSchema = z.object({
  pending: z.array(z.string().min(1).max(64)).max(MAX_EXPORTED_BALLOTS).default([]),
});

export const disputedDecisionSchema = z.object({
  decision: z.enum(["accept", "reject"], { error: "Decision must be accept or reject" }),
});

/** What opening a station on a device hands it. `key` is the session's raw AES key (base64url). */
export interface StationSessionInfo {
  sessionId: string;
  /**
   * The device's own token, for the station routes only: it replaces the sign-in token that
   * opened the station, which the server has revoked.
   */
  token: string;
  key: string;
  station: { _id: string; name: string };
  serverTime: string;
  /** When the officer's sign-in ends: the device cannot cast after it. */
  expiresAt: string;
}

export interface RollEntry {
  _id: string;
  matricNumber: string;
  name: string;
  groups: string[];
  /** Positions the server knew this voter had voted for when the package was made. */
  voted: string[];
}

export interface StationPackage<P = unknown, E = unknown> {
  station: { _id: string; name: string };
  positions: P[];
  election: E | null;
  /**
   * With the election's ballot order 'random', the device orders each voter's candidates from
   * this seed and the voter's id (ballot-order.ts): the server's own per-voter order needs a key
   * the device must not hold. The same for every station, so a voter's order is the same at each.
   */
  ballotOrderSeed: string;
  roll: RollEntry[];
  /**
   * Per locked verifiable position id, its public credentials' list (belenios/credential.ts), so
   * the booth refuses a credential that is not on it, offline too. A package stored before this
   * field has none: the booth then leaves that refusal to the delivery.
   */
  credentialLists?: Record<string, string>;
  generatedAt: string;
}

export interface StationOutcome {
  positionId: string;
  positionTitle: string;
  counted: boolean;
  message: string;
}

/** The server's answer to a station ballot (the same on every replay). Never holds a choice. */
export interface StationBallotAnswer {
  ballotId: string;
  voter: { matricNumber: string; name: string };
  outcomes: StationOutcome[];
}

/**
 * Why a station ballot's choice for a position, cast at `castAt` and delivered at `now`, is
 * refused on timing, or null. The same rule as a voter's late offline vote (decision 0002):
 * the ballot must have been cast inside the position's window, and a ballot cast before the
 * close is still taken up to `graceMs` after it.
 */
export function stationTimingProblem(castAt: number, now: number, window: { startTime: number; endTime: number }, graceMs: number): string | null {
  if (castAt < window.startTime) return messages.votingNotStarted;
  if (castAt > window.endTime || now > window.endTime + graceMs) return messages.votingEnded;
  return null;
}

/**
 * A matriculation number as a look-up compares it: letters and digits only, so '2021-5570101',
 * '20215570101' and '5570101' all find 2021/5570101 (part of it is enough).
 */
export const matricSearchKey = (text: string): string => text.toLowerCase().replace(/[^0-9a-z]/g, "");

/** What an exported file says it is: a station's sealed queue, to be imported by an admin. */
export const STATION_EXPORT_KIND = "csc-evoting-station-ballots";

export const exportedBallotSchema = z.object({
  ballotId: z.string().min(1).max(64),
  sealed: sealedStationBallotSchema,
  /** The device's own label, for the admin reading the file; the server reads the voter from the envelope. */
  voter: z.object({ matricNumber: z.string().max(MAX_MATRIC_LENGTH), name: z.string().max(MAX_NAME_LENGTH) }),
});
export type ExportedBallot = z.infer<typeof exportedBallotSchema>;

/**
 * A station's queue on a USB stick, when the network never came back before the count. Each
 * ballot stays sealed (the GCM tag proves which device made it, unchanged); `sha256` over the
 * JSON of `ballots` shows the file was not edited after export.
 */
export const stationExportSchema = z.object({
  kind: z.literal(STATION_EXPORT_KIND, { error: messages.stationFileInvalid }),
  v: z.literal(1),
  station: z.object({ _id: z.string().max(64), name: z.string().max(MAX_NAME_LENGTH) }),
  exportedAt: z.string().max(40),
  ballots: z.array(exportedBallotSchema).max(MAX_EXPORTED_BALLOTS),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type StationExport = z.infer<typeof stationExportSchema>;

/** What an import did: each ballot counted (in part), refused (a stored refusal), already in, or unreadable. */
export interface StationImportReport {
  counted: number;
  refused: number;
  alreadyIn: number;
  unreadable: number;
  message: string;
}
