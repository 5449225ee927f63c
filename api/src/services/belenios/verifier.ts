import { Worker } from "node:worker_threads";
import { beleniosVerifierUrl } from "../../paths.ts";
import { VERIFIER_THREAD, type BallotVerdict, type VerifyAnswer, type VerifyRequest } from "./verifier-thread.ts";

/**
 * Checks ballots in one worker thread, in the order they come. The thread is started on the
 * first ballot and does not keep the process alive.
 */
export class BallotVerifier {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (c: BallotVerdict) => void; reject: (e: Error) => void }>();

  private start(): Worker {
    const w = new Worker(beleniosVerifierUrl, { workerData: VERIFIER_THREAD });
    w.unref();
    w.on("message", (answer: VerifyAnswer) => {
      const pending = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      pending?.resolve(answer.check);
    });
    const failAll = (err: Error) => {
      for (const p of this.waiting.values()) p.reject(err);
      this.waiting.clear();
      this.worker = null;
    };
    w.on("error", failAll);
    w.on("exit", () => failAll(new Error("The ballot verifier stopped")));
    return w;
  }

  verify(electionJson: string, fingerprint: string, ballot: string): Promise<BallotVerdict> {
    this.worker ??= this.start();
    const id = this.nextId++;
    const req: VerifyRequest = { id, electionJson, fingerprint, ballot };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker!.postMessage(req);
    });
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
