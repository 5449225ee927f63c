/**
 * Builds and encrypts a verifiable position's ballot off the main thread (a few hundred
 * milliseconds of BigInt arithmetic on a phone), so the page stays responsive while it runs.
 */
import { ballotTracker, electionFingerprint, generateBallot, parseElection, type Choice } from "@evoting/shared/belenios";

export interface BallotRequest {
  id: number;
  election: string;
  credential: string;
  choice: Choice;
}
export type BallotAnswer = { id: number; ballot: string; tracker: string } | { id: number; error: string };

export function buildBallot(request: Omit<BallotRequest, "id">): { ballot: string; tracker: string } {
  const election = parseElection(request.election);
  const ballot = generateBallot(request.election, election, electionFingerprint(request.election), request.credential, request.choice);
  return { ballot, tracker: ballotTracker(ballot) };
}

interface WorkerScope {
  addEventListener(type: "message", listener: (event: MessageEvent<BallotRequest>) => void): void;
  postMessage(message: BallotAnswer): void;
}

if (typeof window === "undefined" && typeof self !== "undefined") {
  const scope = self as unknown as WorkerScope;
  scope.addEventListener("message", (event) => {
    const { id, ...request } = event.data;
    try {
      scope.postMessage({ id, ...buildBallot(request) });
    } catch (error) {
      scope.postMessage({ id, error: error instanceof Error ? error.message : "The ballot could not be encrypted" });
    }
  });
}
