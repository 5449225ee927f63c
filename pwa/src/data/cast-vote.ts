/**
 * The cast-vote mutation's input and outcome, and the cast that bypasses the device store;
 * shared by the queries and the offline runtime (which never import each other statically).
 */
import type { MyVote } from "@evoting/shared";
import { api, type CastVoteRequest } from "../api/client";
import { choiceBody, recordedVote } from "../lib/vote-body";

/** The request, and how the choice reads: the candidate's name, and the names of several marks. */
export type CastVoteVariables = Omit<CastVoteRequest, "idempotencyKey"> & { candidateName: string; candidateNames?: string[]; tracker?: string };

/**
 * How a cast ended for the card. `outbox`: through the offline outbox, whose outcome listener
 * (offline/app/outcomes.ts) tells the voter and updates the caches. `direct`: the device store
 * was unavailable or nobody is signed in, so the vote went straight to the API and the caller
 * says so.
 */
export type CastVoteResult =
  | { via: "outbox"; status: "queued" | "delivered" | "already-voted" | "rejected"; vote: MyVote | null }
  | { via: "direct"; status: "delivered"; vote: MyVote };

/**
 * Sends the vote straight to the API, bypassing the device store. The idempotency key is the
 * one the outbox was given when the vote also went there: should that copy be sent later, the
 * server answers it with this vote instead of counting a second ballot.
 */
export async function castDirect(variables: CastVoteVariables, idempotencyKey: string = crypto.randomUUID()): Promise<CastVoteResult> {
  const { positionId, ballotTicket } = variables;
  const choice = { ...variables, candidateId: variables.candidateId ?? "" };
  const response = await api.castVote({ positionId, ...choiceBody(choice), ballotTicket, idempotencyKey });
  return { via: "direct", status: "delivered", vote: response?.vote ?? recordedVote(positionId, choice) };
}
