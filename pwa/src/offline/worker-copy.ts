/**
 * The service worker's copy of the last ballot and my-votes answers (src/sw.ts keeps each one
 * as it passes). The page's own copy is in IndexedDB, written once the page is idle; this one
 * exists from the moment the ballot is on screen, so the page answers from it when the
 * network fails and its own copy is missing or older.
 *
 * One voter's copies at a time, each marked with a SHA-256 of the Authorization header it was
 * read with, so another session on the device is never answered from them; they are deleted
 * when the session ends (data/device-data.ts). Used by the worker and the page alike: web
 * APIs only.
 */

export const WORKER_COPY_CACHE = "voter-answers";

/** The same-origin reads the worker keeps, by the device store's key for the same data. */
export const WORKER_COPY_PATHS = { positions: "/api/vote/positions", myVotes: "/api/vote/my-votes" } as const;
export type WorkerCopyKey = keyof typeof WORKER_COPY_PATHS;
export const WORKER_COPIES: ReadonlySet<string> = new Set(Object.values(WORKER_COPY_PATHS));

const VOTER = "x-voter";
const SAVED_AT = "x-saved-at";

async function voterMark(authorization: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(authorization)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The worker: keeps `response` (a 200 to `url`) as the copy for `authorization`'s voter. */
export async function keepWorkerCopy(url: string, authorization: string, response: Response, now = Date.now()): Promise<void> {
  const [body, voter, cache] = await Promise.all([response.arrayBuffer(), voterMark(authorization), caches.open(WORKER_COPY_CACHE)]);
  // Another session's copies go first: the cache holds one voter's.
  for (const request of await cache.keys()) {
    if ((await cache.match(request))?.headers.get(VOTER) !== voter) await cache.delete(request);
  }
  const { origin, pathname } = new URL(url);
  await cache.put(origin + pathname, new Response(body, { headers: { "content-type": "application/json", [VOTER]: voter, [SAVED_AT]: String(now) } }));
}

/** The page: the worker's copy of `key` for the session holding `authorization`, or null. */
export async function readWorkerCopy<T>(key: WorkerCopyKey, authorization: string): Promise<{ data: T; savedAt: number } | null> {
  if (typeof caches === "undefined") return null;
  const held = await caches.match(WORKER_COPY_PATHS[key], { cacheName: WORKER_COPY_CACHE });
  if (!held || held.headers.get(VOTER) !== (await voterMark(authorization))) return null;
  const savedAt = Number(held.headers.get(SAVED_AT));
  return Number.isFinite(savedAt) ? { data: (await held.json()) as T, savedAt } : null;
}

/** The page, when a session ends: the worker's copies leave the device. */
export async function forgetWorkerCopies(): Promise<void> {
  if (typeof caches !== "undefined") await caches.delete(WORKER_COPY_CACHE);
}
