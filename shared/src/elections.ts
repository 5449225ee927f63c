/**
 * The election's life after polling (docs/lifecycle.md): declaring its results into an
 * archive, listing past elections, and starting the next one. The PWA's forms and the API's
 * validator share the schema.
 */
import { z } from "zod";
import { messages } from "./messages.ts";
import { electionIdentityFields } from "./election-schemas.ts";
import { requiredString } from "./schemas.ts";
import type { Position, ReceiptList, ResultsSheet } from "./types.ts";

export const startElectionSchema = z
  .object({
    ...electionIdentityFields,
    /** Copy the last election's positions (titles, windows moved to the new one, rules; no candidates, no votes). */
    copyPositions: z.boolean({ error: "copyPositions must be true or false" }).optional(),
    /**
     * Which of the last election's positions to copy (a by-election: one); implies copyPositions.
     * Omitted with copyPositions true: every position. Ids of another election are refused (400).
     */
    positionIds: z
      .array(requiredString(messages.positionRequired).max(64, { error: messages.positionNotFound }), { error: "positionIds must be a list of position ids" })
      .min(1, { error: messages.copyPositionsNone })
      .refine((ids) => new Set(ids).size === ids.length, { error: messages.copyPositionsRepeated })
      .optional(),
    /** Keep the voter roll (default); false takes every voter off it, and the admin imports the new roll. */
    keepRoll: z.boolean({ error: "keepRoll must be true or false" }).optional(),
  })
  .strict()
  .refine((v) => Date.parse(v.endTime) > Date.parse(v.startTime), { error: messages.endAfterStart, path: ["endTime"] })
  .refine((v) => v.positionIds === undefined || v.copyPositions !== false, { error: messages.copyPositionsOff, path: ["positionIds"] });
export type StartElectionInput = z.infer<typeof startElectionSchema>;

export type ElectionState = "open" | "declared" | "ended";

/** One election as `GET /elections` lists it. */
export interface ElectionSummary {
  id: number;
  title: string;
  subtitle: string;
  startTime: string;
  endTime: string;
  state: ElectionState;
  declaredAt: string | null;
}

/** A declared election's archive as `GET /elections/:id` answers it: everything as published at the declaration. */
export interface ElectionArchive {
  election: ElectionSummary;
  /** The results CSV's exact bytes (UTF-8 text) and their SHA-256 (hex). */
  resultsCsv: string;
  resultsSha256: string;
  /** The printed sheet's data: results, the CSV's SHA-256 and the audit chain's head. */
  sheet: ResultsSheet;
  /** Each position's counted-ballot list: its receipt codes, sorted. */
  receipts: (ReceiptList & { positionTitle: string })[];
  /** The audit chain's head when the election was declared. */
  audit: { seq: number; hash: string };
  /** The election's settings row and its positions with their candidates, as they stood. */
  settings: Record<string, unknown>;
  positions: Position[];
  /**
   * Each verifiable position's Belenios archive as declared: its final fingerprint (the hash of
   * its last event, Result), the SHA-256 of the `.bel` file's bytes and its ballot count. The
   * file itself: `GET /elections/:id/positions/:positionId/archive.bel`. Absent in archives of
   * elections without verifiable positions or declared before they existed.
   */
  verifiable?: VerifiableArchive[];
}

export interface VerifiableArchive {
  positionId: string;
  positionTitle: string;
  uuid: string;
  fingerprint: string;
  archiveSha256: string;
  ballots: number;
}

/** `GET /admin/elections/current`: what the Admin Panel's election card shows. */
export interface CurrentElectionStatus {
  election: ElectionSummary;
  /** When 'Declare results' is allowed: the last close (election or position) plus the offline grace. */
  declarableAt: string;
  /** Whether any vote was cast (counted, pending or held): a new election then waits for the declaration. */
  hasVotes: boolean;
  /** Whether 'Close voting now' has anything to close: the election's window or a position still takes votes now or later. */
  closable?: boolean;
}
