/**
 * The one way into the offline chunk (the IndexedDB store, the outbox and its sync engine).
 * Everything outside `offline/` that needs the device store comes through here, so the chunk
 * has a single entry and stays out of the first load. The module is evaluated in one task and
 * used in the next, so neither makes a long task.
 */
import { nextTask } from "../../lib/page-idle";

export type OfflineModule = typeof import("./runtime");

let loading: Promise<OfflineModule> | null = null;

export function loadOffline(): Promise<OfflineModule> {
  loading ??= import("./runtime")
    .then(nextTask)
    .catch((error: unknown) => {
      // A failed chunk fetch (offline before the worker cached it) may succeed later.
      loading = null;
      throw error;
    });
  return loading;
}
