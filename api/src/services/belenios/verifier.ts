import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { beleniosVerifierUrl } from "../../paths.ts";
import { VERIFIER_THREAD, type BallotVerdict, type VerifyAnswer, type VerifyQuestion, type VerifyRequest } from "./verifier-thread.ts";

/**
 * Public credentials go to a thread this many at a time (some 0.3 ms of work each there), so
 * that ballots sent meanwhile wait for one slice, not for a whole roll's upload.
 */
const CREDENTIAL_SLICE = 250;

type Pending = { resolve: (a: VerifyAnswer) => void; reject: (e: Error) => void };
type Thread = { worker: Worker; waiting: Map<number, Pending> };

/**
 * At most this many threads: four check some 120 ballots/s (about 30 each, docs/performance.md),
 * above the 100/s the issue asks of polling day. More would only cost memory (each keeps some
 * 10 MB of tables) and, in a container whose CPU quota is below its host's core count (which
 * `availableParallelism()` reports), turns on cores it does not have.
 */
const MAX_THREADS = 4;

/**
 * Checks ballots and public credentials in worker threads, one per core (up to MAX_THREADS). A thread starts on the
 * first check that finds every running thread busy, so a quiet election runs one; in the first
 * minutes' rush both cores check ballots. The threads run at a lower priority than the event loop
 * (verifier-thread.ts), which keeps answering every other request first. A thread keeps the
 * process alive only while a check waits on it.
 */
export class BallotVerifier {
  private readonly threads: Thread[] = [];
  private nextId = 1;

  constructor(private readonly maxThreads = Math.min(availableParallelism(), MAX_THREADS)) {}

  private start(): Thread {
    const thread: Thread = { worker: new Worker(beleniosVerifierUrl, { workerData: VERIFIER_THREAD }), waiting: new Map() };
    const { worker, waiting } = thread;
    worker.on("message", (answer: VerifyAnswer) => {
      const pending = waiting.get(answer.id);
      waiting.delete(answer.id);
      if (waiting.size === 0) worker.unref();
      pending?.resolve(answer);
    });
    const failAll = (err: Error) => {
      for (const p of waiting.values()) p.reject(err);
      waiting.clear();
      const at = this.threads.indexOf(thread);
      if (at >= 0) this.threads.splice(at, 1);
    };
    worker.on("error", failAll);
    worker.on("exit", () => failAll(new Error("The ballot verifier stopped")));
    // After the listeners: adding the "message" one holds the process again.
    worker.unref();
    this.threads.push(thread);
    return thread;
  }

  /** An idle thread, else a new one while under the limit, else the one with the fewest checks waiting. */
  private pick(): Thread {
    const idle = this.threads.find((t) => t.waiting.size === 0);
    if (idle) return idle;
    if (this.threads.length < this.maxThreads) return this.start();
    return this.threads.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
  }

  private ask(question: VerifyQuestion): Promise<VerifyAnswer> {
    const { worker, waiting } = this.pick();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      const req: VerifyRequest = { ...question, id };
      worker.postMessage(req);
      worker.ref(); // until the answer comes
    });
  }

  async verify(electionJson: string, fingerprint: string, ballot: string): Promise<BallotVerdict> {
    const answer = await this.ask({ kind: "ballot", electionJson, fingerprint, ballot });
    if (answer.kind !== "ballot") throw new Error("The ballot verifier answered another question");
    return answer.check;
  }

  /** Whether every string is a BELENIOS-2048 public credential (a member of the group), slice by slice. */
  async arePublicCredentials(credentials: readonly string[]): Promise<boolean> {
    for (let i = 0; i < credentials.length; i += CREDENTIAL_SLICE) {
      const answer = await this.ask({ kind: "credentials", credentials: credentials.slice(i, i + CREDENTIAL_SLICE) });
      if (answer.kind !== "credentials") throw new Error("The ballot verifier answered another question");
      if (!answer.allValid) return false;
    }
    return true;
  }

  /** How many threads are running (tests and the bench). */
  get running(): number {
    return this.threads.length;
  }

  async stop(): Promise<void> {
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}

let shared: BallotVerifier | null = null;

/** The process's one verifier. */
export function ballotVerifier(): BallotVerifier {
  shared ??= new BallotVerifier();
  return shared;
}
