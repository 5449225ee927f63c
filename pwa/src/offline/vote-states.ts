/**
 * What this device knows about each of a voter's ballots, as the vote page needs it: a vote
 * waiting in the outbox ('queued'), a vote the server holds ('voted', also after a 409), or a
 * queued vote the server refused ('failed', with its reason). The shape matches the cards'
 * PositionVoteStatus, so the page passes the map straight in as its `local` input.
 */
import type { MyVote } from "@evoting/shared";
import type { EvotingDB, PositionMark } from "./db";
import { liveQuery } from "dexie";
import { createStore, type ReadableStore } from "./store";

export type LocalVoteStatus =
  | { kind: "queued"; vote: MyVote }
  /** `note`: why a queued vote was not needed (the server already held one from elsewhere). */
  | { kind: "voted"; vote: MyVote; note?: string }
  | { kind: "failed"; vote: MyVote; message: string };

export type LocalVoteStates = ReadonlyMap<string, LocalVoteStatus>;

/** A mark's record of a vote (the card's label), from the vote as the voter's list holds it; null fields when none. */
export function markFields(vote: MyVote | null): Pick<PositionMark, "candidateId" | "candidateName" | "choice" | "candidateIds" | "candidateNames" | "tracker"> {
  return {
    candidateId: vote?.candidateId ?? null,
    candidateName: vote?.candidateName ?? null,
    ...(vote?.choice ? { choice: vote.choice } : {}),
    ...(vote?.candidateIds ? { candidateIds: vote.candidateIds, candidateNames: vote.candidateNames ?? [] } : {}),
    ...(vote?.tracker ? { tracker: vote.tracker } : {}),
  };
}

export function toLocalVoteStates(marks: readonly PositionMark[]): LocalVoteStates {
  const states = new Map<string, LocalVoteStatus>();
  for (const mark of marks) {
    const vote: MyVote = {
      positionId: mark.positionId,
      candidateId: mark.candidateId ?? "",
      candidateName: mark.candidateName ?? "",
      ...(mark.choice ? { choice: mark.choice } : {}),
      ...(mark.candidateIds ? { candidateIds: mark.candidateIds, candidateNames: mark.candidateNames ?? [] } : {}),
      ...(mark.tracker ? { tracker: mark.tracker } : {}),
    };
    if (mark.state === "queued") states.set(mark.positionId, { kind: "queued", vote });
    else if (mark.state === "voted") states.set(mark.positionId, { kind: "voted", vote, ...(mark.message ? { note: mark.message } : {}) });
    else states.set(mark.positionId, { kind: "failed", vote, message: mark.message ?? "" });
  }
  return states;
}

const EMPTY: LocalVoteStates = new Map();

/**
 * The same statuses for the same positions. A re-read that changed nothing (liveQuery's first
 * answer on a device with no queued votes, the usual case) must not hand React a new snapshot:
 * an external store's update re-renders every card in one task that cannot be sliced.
 */
export function sameVoteStates(a: LocalVoteStates, b: LocalVoteStates): boolean {
  if (a.size !== b.size) return false;
  for (const [positionId, status] of a) {
    if (JSON.stringify(status) !== JSON.stringify(b.get(positionId))) return false;
  }
  return true;
}

/**
 * A live view of one user's marks: updates when this tab or another one queues or settles a
 * vote (liveQuery hears of writes from every tab). It watches IndexedDB only while
 * someone is subscribed, so useSyncExternalStore can use it directly, StrictMode included.
 */
export function watchVoteStates(db: EvotingDB, userId: string): ReadableStore<LocalVoteStates> {
  const store = createStore<LocalVoteStates>(EMPTY, sameVoteStates);
  let subscription: { unsubscribe(): void } | null = null;
  let subscribers = 0;
  return {
    getSnapshot: store.getSnapshot,
    subscribe(listener) {
      const unsubscribe = store.subscribe(listener);
      if (subscribers++ === 0) {
        subscription = liveQuery(() => db.marks.where("userId").equals(userId).toArray()).subscribe({
          next: (marks) => store.set(toLocalVoteStates(marks)),
          error: (error) => console.error("Could not read queued votes", error),
        });
      }
      return () => {
        unsubscribe();
        if (--subscribers === 0) {
          subscription?.unsubscribe();
          subscription = null;
        }
      };
    },
  };
}
