/**
 * Casting a vote, the data layer's one step between the card (`useCastVote` in ./queries.ts) and
 * the offline outbox: the vote is queued on this device (`queueVote`, offline/install.ts) and the
 * outbox sends it (`api.sendVote`, api/client.ts). Only when the device store cannot take it does
 * it go straight to `api.sendVote` with the same Idempotency-Key.
 */
import type { CastVoteResponse, MyVote } from "@evoting/shared";
import { answerBody, api, ApiRequestError, type CastVoteRequest } from "../api/client";
import { session } from "../auth/session";
import { loadOffline } from "../offline/app/load";
import { choiceBody, choiceFields, recordedVote } from "../lib/vote-body";

/** The request, and how the choice reads: the candidate's name, and the names of several marks. */
export type CastVoteVariables = Omit<CastVoteRequest, "idempotencyKey"> & { candidateName: string; candidateNames?: string[]; tracker?: string };

/**
 * How a cast ended for the card. `outbox`: through the offline outbox, whose outcome listener
 * (./outcomes.ts) tells the voter and updates the caches. `direct`: the device store was
 * unavailable or nobody is signed in, so the vote went straight to the API and the caller says so.
 */
export type CastVoteResult =
  | { via: "outbox"; status: "queued" | "delivered" | "already-voted" | "rejected"; vote: MyVote | null }
  | { via: "direct"; status: "delivered"; vote: MyVote };

/**
 * How long a vote waits for the device store to open, and then for its write, before it goes
 * straight to the API instead. A healthy store answers in milliseconds; one that does not
 * (WebKit's back/forward-cache trap, a blocked upgrade) must not leave 'Casting Vote...' spinning.
 */
export const STORE_LIMIT_MS = 3_000;

/**
 * Saves the vote in the outbox and waits briefly for the server; 'queued' when no answer came.
 * When the device store does not answer, the vote goes straight to the API with the same
 * idempotency key while online, and the voter is told plainly when offline.
 */
export async function castVote(variables: CastVoteVariables, storeLimitMs = STORE_LIMIT_MS): Promise<CastVoteResult> {
  const userId = session.user()?._id ?? null;
  const key = crypto.randomUUID();
  // Nobody signed in (the server answers 401) or no IndexedDB (some private modes): no outbox.
  if (!userId || typeof indexedDB === "undefined") return sendDirect(variables, key);
  const offline = await loadOffline();
  const { positionId, ballotTicket } = variables;
  try {
    const input = { userId, positionId, ...choiceFields({ ...variables, candidateId: variables.candidateId ?? "" }), ballotTicket };
    const result = await offline.getOffline().queueVote(input, { key, storeLimitMs });
    return { via: "outbox", status: result.status, vote: result.status === "queued" ? null : result.outcome.recordedVote };
  } catch (error) {
    // A second vote for a position this device already holds: worded like the server's 409.
    if (error instanceof offline.QueueRefusedError) throw new ApiRequestError(409, error.message, true);
    if (!(error instanceof offline.StoreUnavailableError)) throw error;
    console.warn("The device store did not answer; the vote goes straight to the server", error.reason);
    if (typeof navigator !== "undefined" && navigator.onLine === false) throw new ApiRequestError(0, offline.offlineText.storeUnavailable, true);
    return sendDirect(variables, key);
  }
}

/**
 * Sends the vote straight to the API, bypassing the device store. The idempotency key is the
 * one the outbox was given when the vote also went there: should that copy be sent later, the
 * server answers it with this vote instead of counting a second ballot.
 */
async function sendDirect(variables: CastVoteVariables, idempotencyKey: string): Promise<CastVoteResult> {
  const { positionId, ballotTicket } = variables;
  const choice = { ...variables, candidateId: variables.candidateId ?? "" };
  const response = answerBody<CastVoteResponse>(await api.sendVote({ positionId, ...choiceBody(choice), ballotTicket, idempotencyKey }));
  return { via: "direct", status: "delivered", vote: response?.vote ?? recordedVote(positionId, choice) };
}
