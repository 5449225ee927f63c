/**
 * A ballot verifier's thread: a ballot's proofs take some 80 modular exponentiations, and an
 * uploaded public credential's membership test one more, so they are checked here, off the
 * event loop that answers every other request.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { G, isPublicCredential, parseElection, precomputeBase, verifyBallot, type BallotCheck } from "@evoting/shared/belenios";
import { useNativeModPow } from "./modpow.ts";

export const VERIFIER_THREAD = "evoting-belenios-verifier";

/** The thread's nice value: the event loop (0) gets the core whenever it has work. */
export const VERIFIER_NICE = 10;

/**
 * Lowers this thread's priority, so that checking ballots on every core never delays an ordinary
 * vote's answer (docs/performance.md). Linux gives each thread its own nice value, and this one's
 * id is the last part of /proc/thread-self; elsewhere the thread keeps the process's priority.
 */
function yieldToTheEventLoop(): void {
  try {
    setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), VERIFIER_NICE);
  } catch {
    // Not Linux, or not allowed: the same checks, at the same priority as the event loop.
  }
}

export type VerifyQuestion = { kind: "ballot"; electionJson: string; fingerprint: string; ballot: string } | { kind: "credentials"; credentials: string[] };

export type VerifyRequest = VerifyQuestion & { id: number };

/** What the caller needs of a check: the ballot's credential and tracker, or why it is refused. */
export type BallotVerdict = { ok: true; credential: string; tracker: string } | Extract<BallotCheck, { ok: false }>;

export type VerifyAnswer = { id: number; kind: "ballot"; check: BallotVerdict } | { id: number; kind: "credentials"; allValid: boolean };

function checkBallot(req: Extract<VerifyQuestion, { kind: "ballot" }>): BallotVerdict {
  let check: BallotCheck;
  try {
    const election = parseElection(req.electionJson);
    precomputeBase(election.publicKey);
    check = verifyBallot(req.ballot, election, req.fingerprint);
  } catch (e) {
    check = { ok: false, reason: "format", message: e instanceof Error ? e.message : "The ballot cannot be read" };
  }
  return check.ok ? { ok: true, credential: check.credential, tracker: check.tracker } : check;
}

if (parentPort && workerData === VERIFIER_THREAD) {
  yieldToTheEventLoop();
  useNativeModPow();
  // Half of a ballot's exponentiations have the base g or the election's key: with their tables
  // those cost a fraction of OpenSSL's (docs/performance.md). The positions of one election share
  // its key, so the few tables kept are enough.
  precomputeBase(G);
  const port = parentPort;
  port.on("message", (req: VerifyRequest) => {
    const answer: VerifyAnswer =
      req.kind === "ballot"
        ? { id: req.id, kind: "ballot", check: checkBallot(req) }
        : { id: req.id, kind: "credentials", allValid: req.credentials.every(isPublicCredential) };
    port.postMessage(answer);
  });
}
