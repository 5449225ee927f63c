/**
 * The one way into the offline chunk (Dexie, the device store, the outbox and its sync
 * engine). Everything outside `offline/` that needs the device comes through here, so the
 * chunk has a single entry and stays out of the first load.
 *
 * Online, nothing on the device is needed before the first paint: the chunk is loaded when
 * the page is idle (`loadOfflineWhenIdle`), or at once (`loadOffline`) when a read fails and
 * must be answered from the device, or a vote is cast. The module is evaluated in one task
 * and used in the next, so neither makes a long task.
 */
import { nextTask, whenPageIdle } from "../../lib/page-idle";
import type * as Runtime from "./runtime";

export type OfflineModule = typeof Runtime;

let loading: Promise<OfflineModule> | null = null;
let idle: Promise<void> | null = null;
let startNow: (() => void) | null = null;

/** The offline module, now. */
export function loadOffline(): Promise<OfflineModule> {
  startNow?.();
  loading ??= import("./runtime")
    .then(nextTask)
    .catch((error: unknown) => {
      // A failed chunk fetch (offline before the worker cached it) may succeed later.
      loading = null;
      throw error;
    });
  return loading;
}

/** The offline module once the page is idle, or as soon as anything asks for it now. */
export function loadOfflineWhenIdle(): Promise<OfflineModule> {
  if (loading) return loading;
  idle ??= new Promise<void>((resolve) => {
    startNow = resolve;
    whenPageIdle(resolve);
  });
  return idle.then(loadOffline);
}
