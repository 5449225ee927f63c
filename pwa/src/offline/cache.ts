/**
 * Network first, device copy second: what the data layer (queries.ts) calls for every read a
 * voter needs offline. A good answer is stored per user with `savedAt`; when the network
 * fails, the stored copy is returned with `fromCache: true` so the screen can say
 * 'Offline: showing data from HH:MM'. Auth and other client errors are never masked by old
 * data: they are thrown as they came.
 */
import { offlineDb, type CacheData, type CacheKey, type EvotingDB } from "./db";
import { freshness } from "./freshness";

export interface Cached<T> {
  data: T;
  fromCache: boolean;
  /** Epoch ms the data left the server (now, for a fresh answer). */
  savedAt: number;
}

export interface ReadThroughOptions {
  db?: EvotingDB;
  now?: () => number;
  /** Which failures may be answered from the device. Default: see `isOfflineError`. */
  canFallBack?: (error: unknown) => boolean;
}

/**
 * True for failures that mean "no usable answer": fetch's TypeError, a timeout/abort, 408,
 * 429 and 5xx. A 4xx (401 signed out, 403, 404) is a real answer and must reach the screen.
 */
export function isOfflineError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status > 0) {
    return status >= 500 || status === 408 || status === 429;
  }
  return true;
}

export async function readThrough<K extends CacheKey>(
  key: K,
  userId: string,
  fetcher: () => Promise<CacheData[K]>,
  options: ReadThroughOptions = {},
): Promise<Cached<CacheData[K]>> {
  const db = options.db ?? offlineDb();
  const now = options.now ?? Date.now;
  const canFallBack = options.canFallBack ?? isOfflineError;
  try {
    const data = await fetcher();
    const savedAt = now();
    try {
      await db.cache.put({ userId, key, data, savedAt });
    } catch (error) {
      // A full or unavailable IndexedDB must not break an online read.
      console.warn(`Could not keep ${key} for offline use`, error);
    }
    const fresh: Cached<CacheData[K]> = { data, fromCache: false, savedAt };
    freshness.set(key, fresh);
    return fresh;
  } catch (error) {
    if (!canFallBack(error)) throw error;
    const stored = await readCached(key, userId, db).catch(() => null);
    if (!stored) throw error;
    freshness.set(key, stored);
    return stored;
  }
}

/**
 * A react-query `queryFn` with the same data shape as `fetcher`, read network first and kept
 * for the signed-in user (`getUserId`); with nobody signed in it is just `fetcher`. Whether the
 * answer came from the device is published on `freshness` for the offline notice.
 * Queries using it need `networkMode: "always"`, else react-query pauses them offline and
 * never reaches the device copy.
 */
export function offlineRead<K extends CacheKey>(
  key: K,
  fetcher: () => Promise<CacheData[K]>,
  getUserId: () => string | null,
  options: ReadThroughOptions = {},
): () => Promise<CacheData[K]> {
  return async () => {
    const userId = getUserId();
    if (!userId) return fetcher();
    return (await readThrough(key, userId, fetcher, options)).data;
  };
}

/** The device copy alone (e.g. to render instantly before the network answers). */
export async function readCached<K extends CacheKey>(
  key: K,
  userId: string,
  db: EvotingDB = offlineDb(),
): Promise<Cached<CacheData[K]> | null> {
  const entry = await db.cache.get([userId, key]);
  return entry ? { data: entry.data as CacheData[K], fromCache: true, savedAt: entry.savedAt } : null;
}

/** Stores a copy the app obtained some other way (a mutation's answer, a realtime snapshot). */
export async function writeCached<K extends CacheKey>(
  key: K,
  userId: string,
  data: CacheData[K],
  options: { db?: EvotingDB; now?: () => number } = {},
): Promise<void> {
  const db = options.db ?? offlineDb();
  await db.cache.put({ userId, key, data, savedAt: (options.now ?? Date.now)() });
}

export { formatClock, offlineNotice, freshness } from "./freshness";
