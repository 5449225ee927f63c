/**
 * What this device knows about each of a voter's ballots, as the vote page needs it: a vote
 * waiting in the outbox ('queued'), a vote the server holds ('voted', also after a 409), or a
 * queued vote the server refused ('failed', with its reason). The shape matches the cards'
 * PositionVoteStatus, so the page passes the map straight in as its `local` input.
 */
import { liveQuery } from "dexie";
import type { MyVote } from "@evoting/shared";
import type { EvotingDB, PositionMark } from "./db";
import { createStore, type ReadableStore } from "./store";

export type LocalVoteStatus =
  | { kind: "queued"; vote: MyVote }
  | { kind: "voted"; vote: MyVote }
  | { kind: "failed"; vote: MyVote; message: string };

export type LocalVoteStates = ReadonlyMap<string, LocalVoteStatus>;

export function toLocalVoteStates(marks: readonly PositionMark[]): LocalVoteStates {
  const states = new Map<string, LocalVoteStatus>();
  for (const mark of marks) {
    const vote: MyVote = {
      positionId: mark.positionId,
      candidateId: mark.candidateId ?? "",
      candidateName: mark.candidateName ?? "",
    };
    if (mark.state === "queued") states.set(mark.positionId, { kind: "queued", vote });
    else if (mark.state === "voted") states.set(mark.positionId, { kind: "voted", vote });
    else states.set(mark.positionId, { kind: "failed", vote, message: mark.message ?? "" });
  }
  return states;
}

const EMPTY: LocalVoteStates = new Map();

/**
 * A live view of one user's marks: updates when this tab or another one queues or settles a
 * vote (Dexie's liveQuery observes IndexedDB across tabs). Call `close()` when done.
 */
export function watchVoteStates(db: EvotingDB, userId: string): ReadableStore<LocalVoteStates> & { close(): void } {
  const store = createStore<LocalVoteStates>(EMPTY);
  const subscription = liveQuery(() => db.marks.where("userId").equals(userId).toArray()).subscribe({
    next: (marks) => store.set(toLocalVoteStates(marks)),
    error: (error) => console.error("Could not read queued votes", error),
  });
  return { ...store, close: () => subscription.unsubscribe() };
}
