/**
 * Work that can wait for the page: `whenPageIdle` runs a task after the load event, once the
 * main thread is idle (or `timeout` ms later at most), so it never competes with the first
 * render. Where there is no requestIdleCallback (Safari) a short timer stands in.
 */
const NO_IDLE_CALLBACK_DELAY_MS = 1_000;

/** Runs `task` once after load and idle; the returned function cancels it if it has not run. */
export function whenPageIdle(task: () => void, timeout = 4_000): () => void {
  let cancel = () => {};
  const schedule = () => {
    if (typeof requestIdleCallback === "function") {
      const id = requestIdleCallback(() => task(), { timeout });
      cancel = () => cancelIdleCallback(id);
    } else {
      const id = setTimeout(task, NO_IDLE_CALLBACK_DELAY_MS);
      cancel = () => clearTimeout(id);
    }
  };
  if (document.readyState === "complete") {
    schedule();
  } else {
    window.addEventListener("load", schedule, { once: true });
    cancel = () => window.removeEventListener("load", schedule);
  }
  return () => cancel();
}

/**
 * Passes `value` on in a new task. After a dynamic import, the module's evaluation and what the caller then does with it (opening the database,
 * starting the outbox) run as two tasks instead of one long one.
 */
export function nextTask<T>(value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), 0));
}

/**
 * Calls each of `starts` in a task of its own, the first at once. A route's loader starts its
 * queries this way: under DevTools' network recording each `fetch` costs the main thread
 * enough time that two in the loader's task make it a long one (decision 0018).
 */
export async function oneTaskEach(starts: readonly (() => unknown)[]): Promise<void> {
  for (const [index, start] of starts.entries()) {
    if (index > 0) await nextTask(undefined);
    start();
  }
}
