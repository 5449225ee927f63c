/**
 * Builds and encrypts a verifiable position's ballot off the main thread (a few hundred
 * milliseconds of BigInt arithmetic on a phone), so the page stays responsive while it runs. A
 * polling station's booth also asks it whether a credential is on a position's list (one
 * derivation: an exponentiation), so the page never loads this arithmetic.
 */
import {
  ballotTracker,
  credentialEntry,
  credentialListHas,
  electionFingerprint,
  generateBallot,
  parseElection,
  publicCredential,
  type Choice,
} from "@evoting/shared/belenios";

export interface BallotRequest {
  id: number;
  election: string;
  credential: string;
  choice: Choice;
}
/** Whether the credential's public credential for election `uuid` is on `list` (shared credential.ts). */
export interface ListedRequest {
  id: number;
  credential: string;
  uuid: string;
  list: string;
}
export type WorkerRequest = BallotRequest | ListedRequest;
export type BallotAnswer = { id: number; ballot: string; tracker: string } | { id: number; listed: boolean } | { id: number; error: string };

export function buildBallot(request: Omit<BallotRequest, "id">): { ballot: string; tracker: string } {
  const election = parseElection(request.election);
  const ballot = generateBallot(request.election, election, electionFingerprint(request.election), request.credential, request.choice);
  return { ballot, tracker: ballotTracker(ballot) };
}

/** The derivation the Credential Authority page and the ballot make, then the list's entry for it. */
export function isListed(request: Omit<ListedRequest, "id">): boolean {
  return credentialListHas(request.list, credentialEntry(publicCredential(request.credential, request.uuid)));
}

interface WorkerScope {
  addEventListener(type: "message", listener: (event: MessageEvent<WorkerRequest>) => void): void;
  postMessage(message: BallotAnswer): void;
}

if (typeof window === "undefined" && typeof self !== "undefined") {
  const scope = self as unknown as WorkerScope;
  scope.addEventListener("message", (event) => {
    const { id, ...request } = event.data;
    try {
      scope.postMessage("uuid" in request ? { id, listed: isListed(request) } : { id, ...buildBallot(request) });
    } catch (error) {
      scope.postMessage({ id, error: error instanceof Error ? error.message : "The ballot could not be encrypted" });
    }
  });
}
