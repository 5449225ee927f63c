/**
 * What the voter is told about queued votes. Candidates for `@evoting/shared` messages; kept
 * here until the lead moves them, so the offline module has no dependency on the screens.
 */
import { messages } from "@evoting/shared";
import type { OutboxOutcome } from "./db";

export const offlineText = {
  queued: "Saved on this device, will be sent when you are back online",
  queuedBadge: "Queued",
  alreadyQueued: "A vote for this position is already waiting to be sent",
  notNeeded: "You had already voted for this position, so your queued vote was not needed.",
  signInToSend: "Sign in again to send your queued vote",
  offline: "You are offline",
  needsNetwork: "This needs a connection. You are offline.",
  storeUnavailable: "This device could not save your vote, so it was not cast. Connect to the internet and try again.",
  updateReady: "A new version of CSC E-Voting is available.",
  atRisk: "This browser has not promised to keep your queued vote. Keep CSC E-Voting open until it has been sent.",
} as const;

export type ToastTone = "success" | "info" | "error";

/** The toast for a settled outbox item: one place decides the wording for every outcome. */
export function describeOutcome(outcome: OutboxOutcome): { tone: ToastTone; message: string } {
  switch (outcome.status) {
    case "delivered":
      return { tone: "success", message: messages.castVoteSuccess };
    case "already-voted": {
      const name = outcome.recordedVote?.candidateName;
      return { tone: "info", message: name ? `${offlineText.notNeeded} Your recorded vote: ${name}.` : offlineText.notNeeded };
    }
    case "rejected":
      return { tone: "error", message: outcome.message || messages.castVoteFailed };
  }
}
