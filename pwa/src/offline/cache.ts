/**
 * The device's copy of each read a voter needs offline, per user with `savedAt`. The data layer
 * (data/queries.ts) reads network first and, through the offline runtime (app/runtime.ts:
 * `keep`, `fromDevice`), keeps a good answer here and answers from it when the network fails,
 * with `fromCache: true` so the screen can say 'Offline: showing data from HH:MM'. Which
 * failures may be answered from the device: `isOfflineError`.
 */
import { offlineDb, type CacheData, type CacheKey, type EvotingDB } from "./db";

export interface Cached<T> {
  data: T;
  fromCache: boolean;
  /** Epoch ms the data left the server (now, for a fresh answer). */
  savedAt: number;
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
