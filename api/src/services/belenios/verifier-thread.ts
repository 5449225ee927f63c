/**
 * The ballot verifier's thread: a ballot's proofs take some 100 modular exponentiations, so they
 * are checked here, off the event loop that answers every other request.
 */
import { parentPort, workerData } from "node:worker_threads";
import { G, parseElection, precomputeBase, verifyBallot, type BallotCheck } from "@evoting/shared/belenios";
import { useNativeModPow } from "./modpow.ts";

export const VERIFIER_THREAD = "evoting-belenios-verifier";

export interface VerifyRequest {
  id: number;
  electionJson: string;
  fingerprint: string;
  ballot: string;
}

/** What the caller needs of a check: the ballot's credential and tracker, or why it is refused. */
export type BallotVerdict = { ok: true; credential: string; tracker: string } | Extract<BallotCheck, { ok: false }>;

export interface VerifyAnswer {
  id: number;
  check: BallotVerdict;
}

if (parentPort && workerData === VERIFIER_THREAD) {
  useNativeModPow();
  // Half of a ballot's exponentiations have the base g or the election's key: with their tables
  // those cost a fraction of OpenSSL's (docs/performance.md). The positions of one election share
  // its key, so the few tables kept are enough.
  precomputeBase(G);
  const port = parentPort;
  port.on("message", (req: VerifyRequest) => {
    let check: BallotCheck;
    try {
      const election = parseElection(req.electionJson);
      precomputeBase(election.publicKey);
      check = verifyBallot(req.ballot, election, req.fingerprint);
    } catch (e) {
      check = { ok: false, reason: "format", message: e instanceof Error ? e.message : "The ballot cannot be read" };
    }
    const answer: VerifyAnswer = { id: req.id, check: check.ok ? { ok: true, credential: check.credential, tracker: check.tracker } : check };
    port.postMessage(answer);
  });
}
