/**
 * The offline runtime for components, loaded on first use: a screen renders at once and picks
 * up this device's state (queued votes, the outbox's status) a moment later, so IndexedDB is never
 * on the critical path of a first paint.
 */
import { startTransition, useEffect, useState, useSyncExternalStore } from "react";
import type { OfflineRuntime, ReadableStore } from "..";
import { loadOfflineWhenIdle } from "./load";

let loaded: OfflineRuntime | null = null;

export function useOfflineRuntime(enabled = true): OfflineRuntime | null {
  const [runtime, setRuntime] = useState<OfflineRuntime | null>(loaded);
  useEffect(() => {
    if (!enabled || runtime || typeof indexedDB === "undefined") return;
    let live = true;
    void loadOfflineWhenIdle().then(({ getOffline }) => {
      loaded = getOffline();
      // A transition: the screen's update with this device's state (every ballot card, say)
      // renders in short slices instead of one long task.
      if (live) startTransition(() => setRuntime(loaded));
    });
    return () => {
      live = false;
    };
  }, [enabled, runtime]);
  return enabled ? runtime : null;
}

const noSubscribe = () => () => undefined;

/** Reads a store that may not exist yet; `fallback` until it does. */
export function useOptionalStore<T>(store: ReadableStore<T> | null | undefined, fallback: T): T {
  return useSyncExternalStore(
    store?.subscribe ?? noSubscribe,
    store ? store.getSnapshot : () => fallback,
    store ? store.getSnapshot : () => fallback,
  );
}
