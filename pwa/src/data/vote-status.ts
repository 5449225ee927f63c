/**
 * Where each position stands for this voter, derived from data only: the my-votes list and
 * the votes being sent. The offline layer can add its queued votes as another input without
 * any card changing how it renders.
 */
import type { MyVote } from "@evoting/shared";

export type PositionVoteStatus =
  | { kind: "not-voted" }
  | { kind: "casting" }
  /** Saved on this device and waiting to be sent (offline outbox). */
  | { kind: "queued"; vote: MyVote }
  /** `note`: said when a queued vote turned out not to be needed (voted on another device). */
  | { kind: "voted"; vote: MyVote; note?: string }
  /** The server refused a queued vote; the voter must see why. */
  | { kind: "failed"; vote: MyVote; message: string };

export interface VoteStatusInputs {
  myVotes: readonly MyVote[];
  castingIds?: ReadonlySet<string>;
  /** Statuses from elsewhere (the offline outbox), used when the server has no vote yet. */
  local?: ReadonlyMap<string, PositionVoteStatus>;
}

const NOT_VOTED: PositionVoteStatus = { kind: "not-voted" };
const CASTING: PositionVoteStatus = { kind: "casting" };
const votedStatuses = new WeakMap<MyVote, PositionVoteStatus>();
const ownStatuses = new WeakMap<PositionVoteStatus, PositionVoteStatus>();

/**
 * The same inputs give the same status object, so a card whose position did not change is
 * skipped when the page re-renders for another (VotePage memoizes its cards).
 */
export function positionVoteStatus(positionId: string, inputs: VoteStatusInputs): PositionVoteStatus {
  const vote = inputs.myVotes.find((v) => v.positionId === positionId);
  if (vote) {
    const local = inputs.local?.get(positionId);
    // A verifiable vote: only this device knows its tracker and its choice (the server never
    // ties them to the voter), so its own record is the one shown.
    if ((local?.kind === "voted" || local?.kind === "queued") && local.vote.tracker && !vote.tracker) {
      let own = ownStatuses.get(local);
      if (!own) ownStatuses.set(local, (own = { kind: "voted", vote: local.vote, ...(local.kind === "voted" && local.note ? { note: local.note } : {}) }));
      return own;
    }
    if (local?.kind === "voted" && local.note) return { kind: "voted", vote, note: local.note };
    let voted = votedStatuses.get(vote);
    if (!voted) votedStatuses.set(vote, (voted = { kind: "voted", vote }));
    return voted;
  }
  if (inputs.castingIds?.has(positionId)) return CASTING;
  return inputs.local?.get(positionId) ?? NOT_VOTED;
}

export { voteLabel } from "../lib/vote-body";

/** A position counts as voted once the user's vote list contains it (docs/product.md, Rules). */
export const isVoted = (status: PositionVoteStatus) => status.kind === "voted";

/** No further choice can be made: the vote is recorded or on its way. */
export const isLocked = (status: PositionVoteStatus) =>
  status.kind === "voted" || status.kind === "queued" || status.kind === "casting";
