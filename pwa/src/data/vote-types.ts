/** The cast-vote mutation's input and outcome, shared by the queries and the offline runtime. */
import type { MyVote } from "@evoting/shared";
import type { CastVoteRequest } from "../api/client";

export type CastVoteVariables = Omit<CastVoteRequest, "idempotencyKey"> & { candidateName: string };

/**
 * How a cast ended for the card. `outbox`: through the offline outbox, whose outcome listener
 * (offline/app/outcomes.ts) tells the voter and updates the caches. `direct`: the device store
 * was unavailable or nobody is signed in, so the vote went straight to the API and the caller
 * says so.
 */
export type CastVoteResult =
  | { via: "outbox"; status: "queued" | "delivered" | "already-voted" | "rejected"; vote: MyVote | null }
  | { via: "direct"; status: "delivered"; vote: MyVote };
