/**
 * The vote outbox: a vote is first saved on this device, then the sync engine (sync.ts)
 * delivers it. Saving the item and marking the position 'queued' happen in one IndexedDB
 * transaction, so the card can never show 'Queued' for a vote that is not in the outbox, or
 * the reverse.
 */
import { messages } from "@evoting/shared";
import { offlineDb, type EvotingDB, type OutboxItem, type OutboxOutcome, type VoteChoice } from "./db";
import { offlineText } from "./notices";
import { choiceFields, recordedVote } from "../lib/vote-body";
import { markFields } from "./vote-states";

export type QueueVoteInput = VoteChoice;

export type QueueRefusal = "already-queued" | "already-voted";

/** A second vote for a position this device already holds (queued or recorded) is refused. */
export class QueueRefusedError extends Error {
  readonly reason: QueueRefusal;
  constructor(reason: QueueRefusal) {
    super(reason === "already-voted" ? messages.alreadyVoted : offlineText.alreadyQueued);
    this.name = "QueueRefusedError";
    this.reason = reason;
  }
}


export interface QueueOptions {
  db?: EvotingDB;
  now?: () => number;
  newKey?: () => string;
}

export async function queueVote(input: QueueVoteInput, options: QueueOptions = {}): Promise<OutboxItem> {
  const db = options.db ?? offlineDb();
  const now = options.now ?? Date.now;
  const newKey = options.newKey ?? (() => crypto.randomUUID());
  const { userId, positionId } = input;

  return db.transaction("rw", ["outbox", "marks", "cache"], async (tx) => {
    const waiting = await tx.outbox.where("[userId+positionId]").equals([userId, positionId]).count();
    if (waiting > 0) throw new QueueRefusedError("already-queued");

    const mark = await tx.marks.get([userId, positionId]);
    if (mark?.state === "voted") throw new QueueRefusedError("already-voted");
    const myVotes = await tx.cache.get([userId, "myVotes"]);
    if ((myVotes?.data as { positionId: string }[] | undefined)?.some((v) => v.positionId === positionId)) {
      throw new QueueRefusedError("already-voted");
    }

    // The ticket proves the ballot was open before the position closed; take the one this
    // device received with the ballot when the caller has none at hand.
    let ballotTicket = input.ballotTicket;
    if (!ballotTicket) {
      const positions = await tx.cache.get([userId, "positions"]);
      const cached = (positions?.data as { _id: string; ballotTicket?: string }[] | undefined)?.find(
        (p) => p._id === positionId,
      );
      ballotTicket = cached?.ballotTicket;
    }

    const t = now();
    const item: OutboxItem = {
      userId,
      positionId,
      ...choiceFields(input),
      ...(ballotTicket ? { ballotTicket } : {}),
      key: newKey(),
      status: "queued",
      attempts: 0,
      queuedAt: t,
      nextAttemptAt: 0,
      serverHold: false,
      lastError: null,
      leaseOwner: null,
      leaseUntil: 0,
    };
    item.id = await tx.outbox.add(item);
    await tx.marks.put({
      userId,
      positionId,
      state: "queued",
      ...markFields(recordedVote(positionId, input)),
      key: item.key,
      message: null,
      updatedAt: t,
    });
    return item;
  });
}

/** The user's unanswered votes, in queue order. */
export function pendingVotes(userId: string, db: EvotingDB = offlineDb()): Promise<OutboxItem[]> {
  return db.outbox.where("userId").equals(userId).sortBy("id");
}

/** Outcomes the voter has not been told about yet (e.g. settled while the app was closed). */
export async function unseenOutcomes(userId: string, db: EvotingDB = offlineDb()): Promise<OutboxOutcome[]> {
  const all = await db.outcomes.where("userId").equals(userId).sortBy("settledAt");
  return all.filter((o) => o.seenAt === null);
}

export async function markOutcomeSeen(key: string, db: EvotingDB = offlineDb(), now = Date.now): Promise<void> {
  await db.outcomes.update(key, { seenAt: now() });
}
