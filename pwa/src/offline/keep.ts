/**
 * Votes waiting on this device, and what the browser may do to them. Background Sync exists
 * only in Chromium, Safari may clear a site's storage after days without use, and closing the
 * tab stops every retry: a voter whose queued vote might not be kept is told so while they are
 * still here, not later.
 *
 * - The first time a vote waits, the app asks for persistent storage; a browser that refuses
 *   (or cannot say) leaves `atRisk` true while votes wait, and the notices say so.
 * - While votes wait, leaving the page asks first (the browser's own 'Leave site?' prompt).
 */
import { createStore, type ReadableStore } from "./store";

export type Keeping = "unknown" | "persisted" | "refused";

export interface QueuedVotesGuard {
  /** Votes wait and the browser gave no promise to keep them. */
  atRisk: ReadableStore<boolean>;
  stop(): void;
}

interface StorageLike {
  persisted?: () => Promise<boolean>;
  persist?: () => Promise<boolean>;
}

export interface GuardOptions {
  /** How many of the signed-in voter's votes wait, kept current. */
  pending: ReadableStore<number>;
  storage?: StorageLike | null;
  target?: Pick<Window, "addEventListener" | "removeEventListener"> | null;
}

export function guardQueuedVotes(options: GuardOptions): QueuedVotesGuard {
  const { pending } = options;
  const storage = options.storage === undefined ? ((globalThis.navigator as { storage?: StorageLike } | undefined)?.storage ?? null) : options.storage;
  const target = options.target === undefined ? (typeof window === "undefined" ? null : window) : options.target;
  let keeping: Keeping = "unknown";
  let asked = false;
  const atRisk = createStore(false);
  const update = () => atRisk.set(pending.getSnapshot() > 0 && keeping !== "persisted");

  async function ask() {
    asked = true;
    try {
      const already = (await storage?.persisted?.()) ?? false;
      const granted = already || ((await storage?.persist?.()) ?? false);
      keeping = granted ? "persisted" : "refused";
    } catch {
      keeping = "refused";
    }
    update();
  }

  const onBeforeUnload = (event: Event) => {
    if (pending.getSnapshot() === 0) return;
    // The browser shows its own 'Leave site?' question; the text is its own.
    event.preventDefault();
    (event as BeforeUnloadEvent).returnValue = "";
  };
  target?.addEventListener("beforeunload", onBeforeUnload);

  const onPending = () => {
    if (pending.getSnapshot() > 0 && !asked) void ask();
    update();
  };
  const unsubscribe = pending.subscribe(onPending);
  onPending();

  return {
    atRisk,
    stop() {
      unsubscribe();
      target?.removeEventListener("beforeunload", onBeforeUnload);
    },
  };
}
