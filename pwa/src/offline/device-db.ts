/**
 * What the two device databases ("evoting" and the station's "evoting-station") share: Dexie,
 * a time limit for the opens and writes a vote waits for, and the defence against WebKit's
 * back/forward cache. WebKit keeps a page it just left in that cache even while one of its
 * IndexedDB transactions is unfinished; the frozen page never finishes it, so every later
 * page's transactions on the same stores wait behind it, reloads included, until the cached
 * page is evicted. So the page aborts what it has not finished as it enters that cache, and
 * closes its connection.
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
 * The transactions `db` has started and that have not ended. Must be called before `db` is
 * first opened (Dexie builds its middleware stack at open).
 */
function unfinishedTransactions(db: Dexie): Set<IDBTransaction> {
  const live = new Set<IDBTransaction>();
  db.use({
    stack: "dbcore",
    name: "unfinished-transactions",
    create: (down) => ({
      ...down,
      transaction(stores, mode, options) {
        const tx = down.transaction(stores, mode, options);
        // Dexie's IndexedDB core hands out the IndexedDB implementation's own transaction.
        const idb = tx as unknown as Partial<IDBTransaction>;
        if (typeof idb.abort === "function" && typeof idb.addEventListener === "function") {
          const transaction = idb as IDBTransaction;
          const end = () => live.delete(transaction);
          live.add(transaction);
          for (const type of ["complete", "abort", "error"]) transaction.addEventListener(type, end);
        }
        return tx;
      },
    }),
  });
  return live;
}

/**
 * Closes `db` when the page is hidden (`pagehide`), first aborting its unfinished
 * transactions when the page goes into the back/forward cache (`persisted`: a page that is
 * really unloading keeps its writes, which the browser may still commit); opens it again when
 * the page is shown (`pageshow`, a return from that cache). A query made in between opens it
 * too. Call it before `db` is first opened. Returns the way to stop watching.
 */
export function closeWhileHidden(db: Dexie, target: Pick<Window, "addEventListener" | "removeEventListener"> = window): () => void {
  const unfinished = unfinishedTransactions(db);
  const hide = (event: Event) => {
    if ((event as PageTransitionEvent).persisted) {
      for (const tx of unfinished) {
        try {
          tx.abort();
        } catch {
          // It finished meanwhile.
        }
      }
      unfinished.clear();
    }
    db.close({ disableAutoOpen: false });
  };
  const show = () => {
    if (!db.isOpen()) void db.open().catch(() => undefined);
  };
  target.addEventListener("pagehide", hide);
  target.addEventListener("pageshow", show);
  return () => {
    target.removeEventListener("pagehide", hide);
    target.removeEventListener("pageshow", show);
    db.unuse({ stack: "dbcore", name: "unfinished-transactions" });
  };
}
