/**
 * What the two device databases ("evoting" and the station's "evoting-station") share: Dexie,
 * a time limit for the opens and writes a vote waits for, and the defence against WebKit's
 * back/forward cache. WebKit keeps a page it just left in that cache while one of its
 * IndexedDB transactions is unfinished, and the next page's transactions on the same store
 * then wait for it indefinitely; closing the connection when the page is hidden releases it.
 */
import type { Dexie, DexieOptions } from "dexie";

/** Another IndexedDB implementation (tests: fake-indexeddb's, one private store per test). */
export type IndexedDbFactory = Pick<DexieOptions, "indexedDB" | "IDBKeyRange">;

/** The device store did not answer in time, or could not be opened at all. */
export class StoreUnavailableError extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = "StoreUnavailableError";
  }
}

/** `work`, or a StoreUnavailableError once `ms` have passed without it settling. */
export function withinTime<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(new Error(`${what}: no answer within ${ms} ms`))), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/**
 * Closes `db` when the page is hidden (`pagehide`) and opens it again when the page is shown
 * (`pageshow`, a return from the back/forward cache). A query made in between opens it too.
 * Returns the way to stop watching.
 */
export function closeWhileHidden(db: Dexie, target: Pick<Window, "addEventListener" | "removeEventListener"> = window): () => void {
  const hide = () => db.close({ disableAutoOpen: false });
  const show = () => {
    if (!db.isOpen()) void db.open().catch(() => undefined);
  };
  target.addEventListener("pagehide", hide);
  target.addEventListener("pageshow", show);
  return () => {
    target.removeEventListener("pagehide", hide);
    target.removeEventListener("pageshow", show);
  };
}
