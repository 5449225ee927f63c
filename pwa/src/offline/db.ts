/**
 * The device's own copy of the election (IndexedDB through Dexie). No React in this folder.
 *
 * What is stored where (database "evoting"):
 *
 * | table      | key                     | holds                                                        |
 * |------------|-------------------------|--------------------------------------------------------------|
 * | `cache`    | [userId+key]            | the last good answer per user and query, with `savedAt`:     |
 * |            |                         | `positions` (ballot, candidates, ballot tickets), `myVotes`, |
 * |            |                         | `results` (last snapshot), `profile`, `candidates`,          |
 * |            |                         | `credential` (a verifiable position's, typed by the voter)   |
 * | `marks`    | [userId+positionId]     | what this device knows about each of the user's ballots:     |
 * |            |                         | queued / voted / rejected, written in the same transaction   |
 * |            |                         | as the outbox change that caused it                          |
 * | `outbox`   | ++id (queue order), key | votes not yet answered by the server: queued, sending        |
 * |            |                         | (claimed under a lease), auth-required                       |
 * | `outcomes` | key (idempotency key)   | how each outbox item ended: delivered, already-voted,        |
 * |            |                         | rejected, with the server's status and message               |
 *
 * Candidate photos are not here: the service worker keeps them in a runtime cache.
 * Everything is keyed by user id, so two voters sharing a device never see each other's data.
 * A shared lab computer: 'Logout' removes ALL of it (`forgetUser`, after warning
 * about queued votes); a session that ended otherwise (401, another tab) keeps only the votes
 * that have not reached the server (`clearUserData`), so they go when the voter signs in again.
 */
import Dexie, { type EntityTable, type Table } from "dexie";
import { closeWhileHidden, type IndexedDbFactory } from "./device-db";
import type { BallotPosition, Candidate, ElectionSettings, MyVote, Results, UserProfile } from "@evoting/shared";
import type { ChoiceFields } from "../lib/vote-body";

/** What each cache key holds. */
export interface CacheData {
  positions: BallotPosition[];
  myVotes: MyVote[];
  results: Results;
  profile: UserProfile;
  candidates: Candidate[];
  /** The election's settings: banner, countdown, results visibility, offline too. */
  election: ElectionSettings;
  /** The voter's Belenios credential for verifiable positions (typed once, forgotten with the session). */
  credential: string;
}
export type CacheKey = keyof CacheData;

export interface CacheEntry<K extends CacheKey = CacheKey> {
  userId: string;
  key: K;
  data: CacheData[K];
  /** Epoch ms when the server gave us this copy. */
  savedAt: number;
}

/** Pending states live in `outbox`; terminal ones are moved to `outcomes`. */
export type PendingStatus = "queued" | "sending" | "auth-required";
export type TerminalStatus = "delivered" | "already-voted" | "rejected";
export type OutboxStatus = PendingStatus | TerminalStatus;

export interface OutboxError {
  /** `network`: no answer; `server`: 5xx/408; `busy`: 429/503 with the server's Retry-After. */
  kind: "network" | "server" | "busy" | "auth";
  httpStatus?: number;
  message: string;
}

/**
 * A vote as queued: the choice fields (lib/vote-body.ts: a candidate, 'yes' / 'no' / 'abstain',
 * or the marks of a several-seat or ranked ballot). Fields that are not indexed, so the ballot
 * methods' marks needed no new database version.
 */
export interface VoteChoice extends ChoiceFields {
  userId: string;
  positionId: string;
  ballotTicket?: string;
}

export interface OutboxItem extends VoteChoice {
  /** Auto-increment: queue order. */
  id?: number;
  /** Idempotency key sent as `Idempotency-Key`; the same for every attempt of this vote. */
  key: string;
  status: PendingStatus;
  attempts: number;
  queuedAt: number;
  /** Not sent before this instant (backoff); 0 = due now. */
  nextAttemptAt: number;
  /** True when `nextAttemptAt` came from the server's Retry-After, which a manual kick must respect. */
  serverHold: boolean;
  lastError: OutboxError | null;
  /** Which engine (tab) claimed the item, and until when its claim holds. */
  leaseOwner: string | null;
  leaseUntil: number;
}

export interface OutboxOutcome extends VoteChoice {
  key: string;
  status: TerminalStatus;
  httpStatus: number;
  /** The server's message, or ours when it gave none. */
  message: string;
  /** The vote the server holds for this position afterwards (ours, or the one cast elsewhere). */
  recordedVote: MyVote | null;
  attempts: number;
  queuedAt: number;
  settledAt: number;
  /** Set once the UI has told the voter; unseen outcomes are shown at next start. */
  seenAt: number | null;
}

export type MarkState = "queued" | "voted" | "rejected";

export interface PositionMark {
  userId: string;
  positionId: string;
  state: MarkState;
  candidateId: string | null;
  candidateName: string | null;
  /** Set for a 'no' or 'abstain' vote, or a referendum's 'yes'. */
  choice?: "yes" | "no" | "abstain";
  /** Several seats or ranked: the marks and their names, in the voter's order. */
  candidateIds?: string[];
  candidateNames?: string[];
  /** A verifiable position's ballot tracker, computed on this device. */
  tracker?: string;
  /** The outbox item (idempotency key) behind this mark, if any. */
  key: string | null;
  /** Why a queued vote was refused, for the card. */
  message: string | null;
  updatedAt: number;
}

export class EvotingDB extends Dexie {
  cache!: Table<CacheEntry, [string, CacheKey]>;
  marks!: Table<PositionMark, [string, string]>;
  outbox!: EntityTable<OutboxItem, "id">;
  outcomes!: EntityTable<OutboxOutcome, "key">;

  constructor(name = "evoting", factory?: IndexedDbFactory) {
    super(name, factory);
    // Version 1 (IndexedDB's 10). Devices hold it as written here since the first release
    // (idb-layout.test.ts pins it). A schema change adds a new numbered version, with an
    // upgrade function when rows must be reshaped; never edit this one.
    this.version(1).stores({
      cache: "[userId+key], userId",
      marks: "[userId+positionId], userId",
      outbox: "++id, &key, userId, [userId+positionId]",
      outcomes: "key, userId, [userId+positionId], settledAt",
    });
  }
}

/** The app's database, or (tests) one of another name in a private IndexedDB. */
export function evotingDb(name = "evoting", factory?: IndexedDbFactory): EvotingDB {
  return new EvotingDB(name, factory);
}

let shared: EvotingDB | null = null;

/** The app's database, opened on first use, so importing this module never touches IndexedDB. */
export function offlineDb(): EvotingDB {
  if (!shared) {
    shared = evotingDb();
    if (typeof window !== "undefined") closeWhileHidden(shared);
  }
  return shared;
}

/**
 * Session ended (not by 'Logout'): forget everything about this user except votes the server has not answered yet
 * (and the 'queued' marks that show them), so a vote cast offline survives a sign-out and is
 * sent when the same user signs in again.
 */
export async function clearUserData(userId: string, db: EvotingDB = offlineDb()): Promise<void> {
  await db.transaction("rw", ["cache", "marks", "outcomes", "outbox"], async (tx) => {
    const pendingKeys = new Set(
      (await tx.outbox.where("userId").equals(userId).toArray()).map((item) => item.key),
    );
    await tx.cache.where("userId").equals(userId).delete();
    await tx.outcomes.where("userId").equals(userId).delete();
    await tx.marks
      .where("userId")
      .equals(userId)
      .filter((mark) => !(mark.state === "queued" && mark.key !== null && pendingKeys.has(mark.key)))
      .delete();
  });
}

/**
 * 'Logout' on a shared computer: nothing of this user stays, queued votes included (the
 * voter was told they would not be sent). Candidate photos stay: they are the election's.
 */
export async function forgetUser(userId: string, db: EvotingDB = offlineDb()): Promise<void> {
  const tables = ["cache", "marks", "outcomes", "outbox"] as const;
  await db.transaction("rw", tables, async (tx) => {
    for (const table of tables) await tx[table].where("userId").equals(userId).delete();
  });
}
