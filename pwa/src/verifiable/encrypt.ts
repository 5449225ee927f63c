/**
 * The page's way to a verifiable ballot: the work runs in a Web Worker (ballot-worker.ts), its
 * own file that the service worker keeps for offline use; the page never loads the crypto.
 */
import type { Choice } from "@evoting/shared/belenios";
import type { BallotAnswer, BallotRequest, ListedRequest, WorkerRequest } from "./ballot-worker";

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (v: BallotAnswer) => void; reject: (e: Error) => void }>();

function ballotWorker(): Worker {
  if (worker) return worker;
  const created = new Worker(new URL("./ballot-worker.ts", import.meta.url), { type: "module", name: "ballot" });
  created.addEventListener("message", (event: MessageEvent<BallotAnswer>) => {
    const answer = event.data;
    const pending = waiting.get(answer.id);
    if (!pending) return;
    waiting.delete(answer.id);
    if ("error" in answer) pending.reject(new Error(answer.error));
    else pending.resolve(answer);
  });
  created.addEventListener("error", (event) => {
    // The worker's script could not load (offline before the service worker kept it).
    event.preventDefault();
    worker = null;
    for (const [, pending] of waiting) pending.reject(new Error("The ballot could not be encrypted on this device: reload the page while online, then try again."));
    waiting.clear();
  });
  worker = created;
  return created;
}

/**
 * Starts the worker ahead of the cast: its script is fetched now, while online, and kept by the
 * service worker (src/sw.ts), so the ballot can be encrypted offline later, after a reload too.
 */
export function prewarmBallotWorker(): void {
  if (typeof Worker === "undefined") return;
  try {
    ballotWorker();
  } catch (error) {
    console.warn("The ballot worker could not start", error);
  }
}

function ask(request: Omit<BallotRequest, "id"> | Omit<ListedRequest, "id">): Promise<BallotAnswer> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    ballotWorker().postMessage({ id, ...request } as WorkerRequest);
  });
}

/** The ballot text and its tracker, as `belenios-tool election generate-ballot` and `sha256-b64` would print them. */
export async function encryptBallot(election: string, credential: string, choice: Choice): Promise<{ ballot: string; tracker: string }> {
  const answer = await ask({ election, credential, choice });
  if (!("ballot" in answer)) throw new Error("The ballot could not be encrypted on this device.");
  return { ballot: answer.ballot, tracker: answer.tracker };
}

/**
 * Whether a well-formed credential is on a position's list of public credentials (a polling
 * station's copy, shared credential.ts), for election `uuid`: derived in the worker, like a ballot.
 */
export async function credentialListed(credential: string, uuid: string, list: string): Promise<boolean> {
  const answer = await ask({ credential, uuid, list });
  if (!("listed" in answer)) throw new Error("The credential could not be checked on this device.");
  return answer.listed;
}
