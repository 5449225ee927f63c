/**
 * The credential authority's work, in the browser only (docs/verifiable.md): one private
 * credential per voter, and for every verifiable position the voter may vote in, its public
 * credential for that position's uuid; then the slips' QR codes. It all runs in a Web Worker
 * (credential-worker.ts), so the page answers input and shows the progress while thousands of
 * credentials are made. Private credentials stay in the worker's and the page's memory; only the
 * public ones are uploaded.
 */
import type { Position, VoterListItem } from "@evoting/shared";
import type { CredentialAnswer, CredentialRequest, CredentialRun } from "./credential-worker";

export type { CredentialRun, Slip } from "./credential-worker";

/** A request before its id (each member of the union without it). */
type Unnumbered = CredentialRequest extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

type Waiting = { resolve: (answer: CredentialAnswer) => void; reject: (error: Error) => void; onProgress?: (done: number, total: number) => void };

/** One page's worker: started on first use, ended with `close()` (the page unmounts). */
export class CredentialWorker {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL("./credential-worker.ts", import.meta.url), { type: "module", name: "credentials" });
    worker.addEventListener("message", (event: MessageEvent<CredentialAnswer>) => {
      const answer = event.data;
      const pending = this.waiting.get(answer.id);
      if (!pending) return;
      if (answer.kind === "progress") return pending.onProgress?.(answer.done, answer.total);
      this.waiting.delete(answer.id);
      if (answer.kind === "failed") pending.reject(new Error(answer.message));
      else pending.resolve(answer);
    });
    worker.addEventListener("error", (event) => {
      // The worker's script could not load or threw outside a request.
      event.preventDefault();
      this.fail("The credentials could not be made in this browser: reload the page while online, then try again.");
    });
    this.worker = worker;
    return worker;
  }

  private ask(request: Unnumbered, onProgress?: Waiting["onProgress"]): Promise<CredentialAnswer> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { resolve, reject, onProgress });
      this.start().postMessage({ ...request, id } as CredentialRequest);
    });
  }

  private fail(message: string) {
    this.worker?.terminate();
    this.worker = null;
    for (const [, pending] of this.waiting) pending.reject(new Error(message));
    this.waiting.clear();
  }

  /** The credentials of every voter who may vote in at least one of `positions` (verifiable, in set-up). */
  async credentials(voters: readonly VoterListItem[], positions: readonly Position[], onProgress: (done: number, total: number) => void): Promise<CredentialRun> {
    const answer = await this.ask(
      {
        kind: "credentials",
        voters: voters.map((v) => ({ name: v.name, matricNumber: v.matricNumber, email: v.email, groups: v.groups })),
        positions: positions.map((p) => ({ id: p._id, uuid: p.belenios!.uuid, title: p.title, eligibleGroups: p.eligibleGroups ?? [] })),
      },
      onProgress,
    );
    if (answer.kind !== "credentials") throw new Error("The credentials could not be made");
    return answer.run;
  }

  /** Each credential's QR code (an SVG image address), in order. */
  async qrCodes(credentials: readonly string[]): Promise<string[]> {
    const answer = await this.ask({ kind: "qr", credentials: [...credentials] });
    if (answer.kind !== "qr") throw new Error("The QR codes could not be drawn");
    return answer.codes;
  }

  /** Ends the worker and whatever it was doing (the page is closing). */
  close() {
    this.fail("The page was closed");
  }
}
