/**
 * What a shared computer keeps of a voter once they are gone ("the shared lab
 * computer"):
 * - after 'Logout': nothing. The query cache, this user's IndexedDB rows (cached ballot, my
 *   votes, results, outcomes, marks, queued votes and ballot tickets), the service worker's
 *   copy of their ballot and votes, and their keys in localStorage are removed; the worker's
 *   candidate photos stay (they are the election's, the same for everyone);
 * - after a session ends any other way (the server answered 401, another tab signed out):
 *   only the outbox, so a vote cast offline still goes when the voter signs in again.
 * The offline module is loaded only when there is something to clear, so /login's first load stays small.
 */
import { loadOffline } from "../offline/app/load";
import { withinTime } from "../offline/device-db";
import { forgetWorkerCopies } from "../offline/worker-copy";
import { session } from "../auth/session";

/**
 * How long 'Logout' waits for the device store to say whether votes are queued. A healthy
 * store answers in milliseconds; WebKit's has been seen to stall for many seconds, and a
 * voter must never be unable to sign out of a shared computer.
 */
export const LOGOUT_STORE_LIMIT_MS = 3_000;

const hasIndexedDb = () => typeof indexedDB !== "undefined";

/** The names of this origin's IndexedDB databases, or null where the browser cannot tell. */
async function indexedDbNames(): Promise<string[] | null> {
  if (!hasIndexedDb() || typeof indexedDB.databases !== "function") return null;
  return (await indexedDB.databases()).map((d) => d.name ?? "");
}

/**
 * Queued votes of this user that the server has not answered yet; a StoreUnavailableError
 * when the device store does not answer within `limitMs`.
 */
export async function queuedVoteCount(userId: string, limitMs = LOGOUT_STORE_LIMIT_MS): Promise<number> {
  if (!hasIndexedDb()) return 0;
  const count = loadOffline().then(async ({ pendingVotes }) => (await pendingVotes(userId)).length);
  return withinTime(count, limitMs, "counting queued votes");
}

/** localStorage keys that belong to one user (the chat's last-read mark, say). */
function forgetStoredKeys(userId: string): void {
  try {
    const mine = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)).filter(
      (key): key is string => key !== null && key.endsWith(`:${userId}`),
    );
    for (const key of mine) localStorage.removeItem(key);
  } catch {
    // Storage disabled: nothing was kept there either.
  }
}

/** 'Logout': everything of the user leaves this device, queued votes included. */
export async function forgetUserOnDevice(userId: string): Promise<void> {
  forgetStoredKeys(userId);
  await forgetWorkerCopies().catch(() => undefined);
  if (!hasIndexedDb()) return;
  const { getOffline } = await loadOffline();
  await getOffline().signedOut(userId, true);
}

/** Any other end of a session: keep only the votes waiting to be sent. */
async function keepOnlyOutbox(userId: string): Promise<void> {
  forgetStoredKeys(userId);
  await forgetWorkerCopies().catch(() => undefined);
  if (!hasIndexedDb()) return;
  const { getOffline } = await loadOffline();
  await getOffline().signedOut(userId);
}

/**
 * A page closed (or reloaded) right after its session ended may not have finished clearing:
 * once the app is idle, anyone who is not signed in here keeps only their outbox.
 */
export async function sweepSignedOutUsers(): Promise<void> {
  if (!hasIndexedDb()) return;
  const { offlineDb, clearUserData } = await loadOffline();
  const db = offlineDb();
  const current = session.user()?._id ?? null;
  if (!current) await forgetWorkerCopies().catch(() => undefined);
  const users = new Set<string>();
  for (const table of [db.cache, db.marks, db.outcomes]) {
    for (const id of await table.orderBy("userId").uniqueKeys()) users.add(String(id));
  }
  for (const userId of users) if (userId !== current) await clearUserData(userId, db);
}

/** Runs the task once the page is idle; returns the way to call it off. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(task, { timeout: 5_000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, 2_000);
  return () => clearTimeout(timer);
}

/** Watches the session from app start: whoever signs out, by whatever way, leaves no data behind. */
export function watchSessionEnd(): () => void {
  // Only when this browser has the database at all: a first visit to /login loads no offline module.
  const cancelSweep = whenIdle(() => {
    const known = indexedDbNames();
    void known.then((names) => (names === null || names.includes("evoting") ? sweepSignedOutUsers() : undefined)).catch(() => undefined);
  });
  let user = session.user()?._id ?? null;
  const unsubscribe = session.subscribe(() => {
    const next = session.user()?._id ?? null;
    const gone = user;
    user = next;
    if (gone && gone !== next) void keepOnlyOutbox(gone).catch((error) => console.warn("Could not clear this device's data", error));
  });
  return () => {
    cancelSweep();
    unsubscribe();
  };
}
