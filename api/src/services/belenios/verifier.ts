import { Worker } from "node:worker_threads";
import { beleniosVerifierUrl } from "../../paths.ts";
import { VERIFIER_THREAD, type BallotVerdict, type VerifyAnswer, type VerifyQuestion, type VerifyRequest } from "./verifier-thread.ts";

/**
 * Public credentials go to the thread this many at a time (some 0.3 ms of work each there), so
 * that ballots sent meanwhile wait for one slice, not for a whole roll's upload.
 */
const CREDENTIAL_SLICE = 250;

type Pending = { resolve: (a: VerifyAnswer) => void; reject: (e: Error) => void };

/**
 * Checks ballots and public credentials in one worker thread, in the order they come. The thread
 * is started on the first check and keeps the process alive only while a check waits.
 */
export class BallotVerifier {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Pending>();

  private start(): Worker {
    const w = new Worker(beleniosVerifierUrl, { workerData: VERIFIER_THREAD });
    w.on("message", (answer: VerifyAnswer) => {
      const pending = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) w.unref();
      pending?.resolve(answer);
    });
    const failAll = (err: Error) => {
      for (const p of this.waiting.values()) p.reject(err);
      this.waiting.clear();
      this.worker = null;
    };
    w.on("error", failAll);
    w.on("exit", () => failAll(new Error("The ballot verifier stopped")));
    // After the listeners: adding the "message" one holds the process again.
    w.unref();
    return w;
  }

  private ask(question: VerifyQuestion): Promise<VerifyAnswer> {
    this.worker ??= this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const req: VerifyRequest = { ...question, id };
      this.worker!.postMessage(req);
      this.worker!.ref(); // until the answer comes
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

  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}

let shared: BallotVerifier | null = null;

/** The process's one verifier. */
export function ballotVerifier(): BallotVerifier {
  shared ??= new BallotVerifier();
  return shared;
}
