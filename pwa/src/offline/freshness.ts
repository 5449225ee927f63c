/**
 * Whether the screens are showing this device's copy, and since when: the store behind the
 * 'Offline: showing data from HH:MM' notice. Kept apart from cache.ts (and IndexedDB) so the
 * signed-in layout can show the notice without loading the database code first.
 */
import type { CacheKey } from "./db";

const pad = (n: number) => String(n).padStart(2, "0");

/** Local wall-clock time as HH:MM (24-hour), the form the offline notice uses. */
export function formatClock(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function offlineNotice(savedAt: number): string {
  return `Offline: showing data from ${formatClock(savedAt)}`;
}

type FreshnessListener = () => void;

/**
 * Which reads were last answered from the device, for a top-bar notice that does not need
 * every screen to pass `fromCache` around. `subscribe`/`getSnapshot` fit useSyncExternalStore.
 */
function createFreshnessStore() {
  let snapshot: Partial<Record<CacheKey, { fromCache: boolean; savedAt: number }>> = {};
  const listeners = new Set<FreshnessListener>();
  return {
    set(key: CacheKey, value: { fromCache: boolean; savedAt: number }) {
      const previous = snapshot[key];
      if (previous && previous.fromCache === value.fromCache && previous.savedAt === value.savedAt) return;
      snapshot = { ...snapshot, [key]: { fromCache: value.fromCache, savedAt: value.savedAt } };
      for (const listener of listeners) listener();
    },
    /** The oldest device copy currently shown, or null when everything is fresh. */
    oldestCached(): number | null {
      const times = Object.values(snapshot)
        .filter((v) => v?.fromCache)
        .map((v) => v!.savedAt);
      return times.length ? Math.min(...times) : null;
    },
    reset() {
      snapshot = {};
      for (const listener of listeners) listener();
    },
    getSnapshot: () => snapshot,
    subscribe(listener: FreshnessListener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export const freshness = createFreshnessStore();
