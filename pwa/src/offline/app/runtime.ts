/**
 * The app's one offline runtime (pwa/src/offline): the IndexedDB store and the vote outbox's sync
 * engine, bound to the session and the API client. Casting a vote starts above it, in
 * data/cast-vote.ts, which queues it here (`getOffline().queueVote`). The entry of the offline chunk: it is loaded
 * through ./load.ts only, so the store stays out of the first load, and the runtime is created
 * on first use, so component tests that never cast a vote never start an engine.
 */
import type { BallotPosition, Results } from "@evoting/shared";
import {
  freshness,
  installOffline,
  prefetchPhotos,
  isOfflineError,
  offlineDb,
  readCached,
  writeCached,
  type CacheData,
  type CacheKey,
  type OfflineRuntime,
  type OutboxHttp,
} from "..";
import { api } from "../../api/client";
import { addBusyCheck } from "./shell";
import { readWorkerCopy, WORKER_COPY_PATHS, type WorkerCopyKey } from "../worker-copy";
import { session } from "../../auth/session";

export { freshness, describeOutcome, offlineText, offlineNotice, pendingVotes, offlineDb, clearUserData, QueueRefusedError } from "..";
export { StoreUnavailableError } from "../device-db";

/** The signed-in user's id: offline data and queued votes are kept per user. */
export const currentUserId = (): string | null => session.user()?._id ?? null;

/** False where IndexedDB is missing (some private modes): casting then goes straight to the API. */
export const offlineAvailable = (): boolean => typeof indexedDB !== "undefined";

/** The sync engine's two calls, made by the app's one API client. */
export const outboxHttp: OutboxHttp = { sendVote: (vote, signal) => api.sendVote(vote, signal), myVotes: (signal) => api.myVotes(signal) };

let runtime: OfflineRuntime | null = null;
let stopWatchingSession: (() => void) | null = null;
let stopBusyCheck: (() => void) | null = null;

export function getOffline(): OfflineRuntime {
  if (runtime) return runtime;
  const created = installOffline({
    http: outboxHttp,
    getToken: session.token,
    getUserId: currentUserId,
    // The server refused the token while replaying: signed out like any other 401.
    onUnauthorized: () => session.clear(),
  });
  runtime = created;
  stopBusyCheck = addBusyCheck(() => created.sync.getSnapshot().state === "syncing");
  const startUser = currentUserId();
  if (startUser) void created.signedIn(startUser).catch((error) => console.error("Could not resume queued votes", error));
  // Signing in (again) sends what waited for this voter's token and reports outcomes that
  // settled while they were away.
  let lastUser = startUser;
  stopWatchingSession = session.subscribe(() => {
    const next = currentUserId();
    if (next === lastUser) return;
    lastUser = next;
    if (next) void created.signedIn(next).catch((error) => console.error("Could not resume queued votes", error));
  });
  return created;
}

/** Tests: stop the engine and forget the runtime (the database is the test's to clear). */
export async function resetOffline(): Promise<void> {
  stopWatchingSession?.();
  stopWatchingSession = null;
  stopBusyCheck?.();
  stopBusyCheck = null;
  const current = runtime;
  runtime = null;
  await current?.uninstall();
  freshness.reset();
}

/** Keeps a good answer for offline use and marks the screen fresh. */
export async function keep<K extends CacheKey>(key: K, userId: string, data: CacheData[K], savedAt = Date.now()): Promise<void> {
  // Signed out (or someone else signed in) while the request was out: the answer is not kept.
  if (currentUserId() !== userId) return;
  freshness.set(key, { fromCache: false, savedAt });
  // A full or unavailable IndexedDB must not break an online read.
  await writeCached(key, userId, data, { now: () => savedAt }).catch((error) => console.warn(`Could not keep ${key} for offline use`, error));
}

/**
 * The network failed: answer from this device's copy (and say so), or rethrow. A real answer
 * such as 401 or 404 is never masked by old data.
 */
export async function fromDevice<K extends CacheKey>(key: K, userId: string, error: unknown): Promise<CacheData[K]> {
  if (!isOfflineError(error)) throw error;
  const [stored, workerCopy] = await Promise.all([readCached(key, userId).catch(() => null), readWorkerCopyOf(key)]);
  // The newer of the two: the worker keeps an answer as it passes, the page once it is idle.
  const best = workerCopy && (!stored || workerCopy.savedAt > stored.savedAt) ? { ...workerCopy, fromCache: true } : stored;
  if (!best) throw error;
  freshness.set(key, best);
  return best.data;
}

/** The service worker's copy of a ballot or my-votes answer for this session, if it holds one. */
async function readWorkerCopyOf<K extends CacheKey>(key: K): Promise<{ data: CacheData[K]; savedAt: number } | null> {
  const token = session.token();
  if (!token || !(key in WORKER_COPY_PATHS)) return null;
  return readWorkerCopy<CacheData[K]>(key as WorkerCopyKey, `Bearer ${token}`).catch(() => null);
}

/** A results snapshot from the live stream is as fresh as a read: keep it and say so. */
export async function keepResults(results: Results): Promise<void> {
  const userId = currentUserId();
  if (!userId) return;
  const savedAt = Date.now();
  freshness.set("results", { fromCache: false, savedAt });
  await writeCached("results", userId, results, { now: () => savedAt }).catch(() => undefined);
}

let photosWaiting: readonly BallotPosition[] | null = null;

/**
 * Fetches every candidate photo through the service worker so its cache holds them for
 * offline use. On the very first visit the worker takes control only after the ballot has
 * loaded, so the fetch then waits for it (once, with the latest ballot).
 */
export function cachePhotos(positions: readonly BallotPosition[]): void {
  const sw = typeof navigator === "undefined" ? undefined : navigator.serviceWorker;
  if (!sw) return;
  if (sw.controller) {
    void prefetchPhotos(positions);
    return;
  }
  const first = photosWaiting === null;
  photosWaiting = positions;
  if (first) {
    sw.addEventListener(
      "controllerchange",
      () => {
        const latest = photosWaiting ?? [];
        photosWaiting = null;
        void prefetchPhotos(latest);
      },
      { once: true },
    );
  }
}

/** The voter's credential for verifiable positions, as this device keeps it (with the rest of their data, until the session ends). */
export async function readCredential(userId: string): Promise<string | null> {
  return (await readCached("credential", userId).catch(() => null))?.data ?? null;
}

/** Keeps (or, with null, forgets) the voter's credential on this device. */
export async function keepCredential(userId: string, credential: string | null): Promise<void> {
  if (credential === null) {
    await offlineDb().cache.delete([userId, "credential"]);
    return;
  }
  await writeCached("credential", userId, credential);
}
