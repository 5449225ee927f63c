/**
 * The outbox's storage steps for the sync engine (sync.ts), each one atomic: claim the queue's
 * head, settle an item (outcome, the card's mark and the cached votes together), hold a user's
 * items for a fresh token, back off, resume. The engine sees only the `OutboxStore` interface;
 * `indexedDbOutbox` runs each step as one IndexedDB transaction, and the tests also run the
 * engine against an in-memory store (test-support.ts) that applies the same rules below.
 */
import type { MyVote } from "@evoting/shared";
import type { CacheEntry, EvotingDB, OutboxError, OutboxItem, OutboxOutcome, PositionMark, TerminalStatus } from "./db";
import { choiceFields, recordedVote as ownVote } from "../lib/vote-body";
import { markFields } from "./vote-states";

export type Claim = { kind: "empty" } | { kind: "wait"; until: number } | { kind: "item"; item: OutboxItem };

export interface ClaimRequest {
  /** Only this user's items; undefined for every user's. */
  user: string | undefined;
  /** Ignore our own backoff (not the server's Retry-After). */
  force: boolean;
  /** The caller holds the Web Lock: no other tab is mid-send, so a leftover lease is stale. */
  exclusive: boolean;
  engineId: string;
  leaseMs: number;
  now: number;
}

export interface Settlement {
  item: OutboxItem;
  status: TerminalStatus;
  httpStatus: number;
  message: string;
  /** The vote the server holds for the position afterwards. */
  recordedVote: MyVote | null;
  /** The server's whole my-votes list, when it was fetched (a 409). */
  freshVotes: MyVote[] | null;
  now: number;
}

export interface Retry {
  nextAttemptAt: number;
  /** The delay came from the server's Retry-After, which a manual kick must respect. */
  serverHold: boolean;
  lastError: OutboxError;
}

export interface OutboxStore {
  /** Unanswered items of `user` (every user's when undefined), auth-required ones included. */
  pending(user: string | undefined): Promise<OutboxItem[]>;
  /** Takes the queue's head for this engine under a lease, or says why not. */
  claimHead(request: ClaimRequest): Promise<Claim>;
  /** Moves the item to its outcome; null when another tab settled it already. */
  settle(settlement: Settlement): Promise<OutboxOutcome | null>;
  /** A token refused for one vote is refused for all of this user's queued votes. */
  holdForAuth(item: OutboxItem, message: string): Promise<void>;
  /** Back in the queue until `retry.nextAttemptAt`, unless another engine took it over. */
  backOff(item: OutboxItem, engineId: string, retry: Retry): Promise<void>;
  /** The user signed in again: their held items are due at once. */
  resume(userId: string): Promise<void>;
}

/** Which item goes next, given every unanswered item in queue order (the rule, for every store). */
export function claimFrom(items: readonly OutboxItem[], request: ClaimRequest): Claim {
  const { user, force, exclusive, engineId, leaseMs, now } = request;
  const head = items.find((i) => (user === undefined || i.userId === user) && i.status !== "auth-required");
  if (!head) return { kind: "empty" };
  if (head.status === "sending" && head.leaseOwner !== engineId && head.leaseUntil > now && !exclusive) {
    return { kind: "wait", until: head.leaseUntil };
  }
  const due = head.nextAttemptAt <= now || (force && !head.serverHold);
  if (!due) return { kind: "wait", until: head.nextAttemptAt };
  return { kind: "item", item: { ...head, status: "sending", attempts: head.attempts + 1, leaseOwner: engineId, leaseUntil: now + leaseMs } };
}

/** What settling writes: the outcome, and the card's mark (the rule, for every store). */
export function settledRows(current: OutboxItem, s: Settlement): { outcome: OutboxOutcome; mark: PositionMark } {
  const { item, status, httpStatus, message, recordedVote, now } = s;
  const outcome: OutboxOutcome = {
    userId: item.userId,
    positionId: item.positionId,
    ...choiceFields(item),
    ...(item.ballotTicket ? { ballotTicket: item.ballotTicket } : {}),
    key: item.key,
    status,
    httpStatus,
    message,
    recordedVote,
    attempts: current.attempts,
    queuedAt: item.queuedAt,
    settledAt: now,
    seenAt: null,
  };
  const rejected = status === "rejected";
  // Refused: the card shows the reason and the voter may choose again. Otherwise the
  // position is voted, with the candidate the server holds (ours, or the one cast elsewhere).
  const mark: PositionMark = {
    userId: item.userId,
    positionId: item.positionId,
    state: rejected ? "rejected" : "voted",
    ...markFields(rejected ? ownVote(item.positionId, item) : recordedVote),
    key: item.key,
    message: status === "delivered" ? null : message,
    updatedAt: now,
  };
  return { outcome, mark };
}

/** The cached my-votes list after settling, or null to leave it as it is. */
export function votesAfter(cached: CacheEntry | undefined, s: Settlement): CacheEntry | null {
  const { item, recordedVote, freshVotes, now } = s;
  if (freshVotes) return { userId: item.userId, key: "myVotes", data: freshVotes, savedAt: now };
  if (!recordedVote || !cached) return null;
  const votes = cached.data as MyVote[];
  return votes.some((v) => v.positionId === item.positionId) ? null : { ...cached, data: [...votes, recordedVote] };
}

export const authHold = (message: string): Partial<OutboxItem> => ({
  status: "auth-required",
  leaseOwner: null,
  leaseUntil: 0,
  lastError: { kind: "auth", httpStatus: 401, message },
});

export const retryPatch = (retry: Retry): Partial<OutboxItem> => ({ status: "queued", ...retry, leaseOwner: null, leaseUntil: 0 });

export const resumed: Partial<OutboxItem> = { status: "queued", nextAttemptAt: 0, serverHold: false };

/** The outbox in the device's IndexedDB: each step one transaction. */
export function indexedDbOutbox(db: EvotingDB): OutboxStore {
  return {
    pending: (user) => (user === undefined ? db.outbox.toArray() : db.outbox.where("userId").equals(user).toArray()),
    claimHead: (request) =>
      db.transaction("rw", db.outbox, async () => {
        const claim = claimFrom(await db.outbox.orderBy("id").toArray(), request);
        if (claim.kind === "item") await db.outbox.put(claim.item);
        return claim;
      }),
    settle: (s) =>
      db.transaction("rw", [db.outbox, db.outcomes, db.marks, db.cache], async () => {
        const current = await db.outbox.get(s.item.id!);
        if (!current) return null; // another tab settled it: its outcome is already recorded
        const { outcome, mark } = settledRows(current, s);
        await db.outbox.delete(s.item.id!);
        await db.outcomes.put(outcome);
        await db.marks.put(mark);
        const votes = votesAfter(await db.cache.get([s.item.userId, "myVotes"]), s);
        if (votes) await db.cache.put(votes);
        return outcome;
      }),
    holdForAuth: (item, message) =>
      db.transaction("rw", db.outbox, async () => {
        const items = await db.outbox.where("userId").equals(item.userId).toArray();
        for (const other of items) if (other.id === item.id || other.status === "queued") await db.outbox.update(other.id!, authHold(message));
      }),
    backOff: (item, engineId, retry) =>
      db.transaction("rw", db.outbox, async () => {
        const current = await db.outbox.get(item.id!);
        if (!current || current.leaseOwner !== engineId) return; // taken over or settled elsewhere
        await db.outbox.update(item.id!, retryPatch(retry));
      }),
    resume: (userId) =>
      db.transaction("rw", db.outbox, async () => {
        const held = await db.outbox.where("userId").equals(userId).toArray();
        for (const item of held) if (item.status === "auth-required") await db.outbox.update(item.id!, resumed);
      }),
  };
}
