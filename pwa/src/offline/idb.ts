/**
 * The device's IndexedDB, through the few calls this app makes: a table's get, put, add,
 * update, delete, count and reads by index; transactions over several tables; and live
 * queries that answer again when a table they read changes, in this tab or another one.
 *
 * It replaced Dexie (issue 13): Dexie's evaluation and its own promise scheduler held the vote
 * page's main thread for 30-55 ms on each first load. Here a request is a plain promise and a
 * transaction stays alive across `await`s of its own requests (a browser runs the promise's
 * continuation before it ends the task that answered the request), so nothing is scheduled
 * twice.
 *
 * Schemas keep Dexie's notation and version numbering, so a device that stored votes under Dexie
 * opens the same database unchanged: `"++id, &key, userId, [userId+positionId]"` is an
 * auto-incremented primary key `id`, a unique index `key`, an index `userId` and a compound
 * index named `[userId+positionId]`; Dexie's version 1 is IndexedDB's version 10.
 */

/** Where IndexedDB comes from: the browser's by default, a private one in tests. */
export interface IndexedDbFactory {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
}

type Mode = "r" | "rw";

/** Runs `work` on one object store: in the caller's transaction, or in one of its own. */
type StoreRunner = <R>(mode: Mode, work: (store: IDBObjectStore) => Promise<R>) => Promise<R>;

/** A request's answer as a promise. */
function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  return (a as number | string) < (b as number | string) ? -1 : 1;
}

/** Rows of a table in the order of an index (or of the primary key), optionally one key only. */
class Query<T> {
  constructor(
    private readonly run: StoreRunner,
    private readonly keyRanges: typeof IDBKeyRange,
    private readonly index: string,
    private readonly only?: IDBValidKey,
    private readonly filters: readonly ((row: T) => boolean)[] = [],
    private readonly reversed = false,
  ) {}

  private source(store: IDBObjectStore): IDBObjectStore | IDBIndex {
    if (store.indexNames.contains(this.index)) return store.index(this.index);
    if (store.keyPath === this.index) return store;
    throw new Error(`${store.name} has no index ${this.index}`);
  }

  private range(): IDBKeyRange | undefined {
    return this.only === undefined ? undefined : this.keyRanges.only(this.only);
  }

  private passes(row: T): boolean {
    return this.filters.every((keep) => keep(row));
  }

  /** The matching rows, in order. */
  private async rows(store: IDBObjectStore): Promise<T[]> {
    const rows = await request(this.source(store).getAll(this.range()) as IDBRequest<T[]>);
    const kept = this.filters.length ? rows.filter((row) => this.passes(row)) : rows;
    return this.reversed ? kept.reverse() : kept;
  }

  /** The matching rows' primary keys; the rows themselves are read only when a filter needs them. */
  private async keys(store: IDBObjectStore): Promise<IDBValidKey[]> {
    const source = this.source(store);
    if (!this.filters.length) return request(source.getAllKeys(this.range()));
    const [rows, keys] = await Promise.all([request(source.getAll(this.range()) as IDBRequest<T[]>), request(source.getAllKeys(this.range()))]);
    return keys.filter((_, i) => this.passes(rows[i]));
  }

  /** Only the rows that pass `keep` as well. */
  filter(keep: (row: T) => boolean): Query<T> {
    return new Query(this.run, this.keyRanges, this.index, this.only, [...this.filters, keep], this.reversed);
  }

  /** The same rows, last first (for `sortBy`, the highest value first). */
  reverse(): Query<T> {
    return new Query(this.run, this.keyRanges, this.index, this.only, this.filters, !this.reversed);
  }

  toArray(): Promise<T[]> {
    return this.run("r", (store) => this.rows(store));
  }

  /** The rows ordered by one of their fields (stable; highest first after `reverse()`). */
  async sortBy(field: keyof T & string): Promise<T[]> {
    const rows = await this.toArray();
    const direction = this.reversed ? -1 : 1;
    return rows
      .map((row, i) => ({ row, i }))
      .sort((a, b) => compare(a.row[field], b.row[field]) * direction || a.i - b.i)
      .map(({ row }) => row);
  }

  count(): Promise<number> {
    return this.run("r", async (store) =>
      this.filters.length ? (await this.rows(store)).length : request(this.source(store).count(this.range())),
    );
  }

  /** Deletes the rows; answers how many. */
  delete(): Promise<number> {
    return this.run("rw", async (store) => {
      const keys = await this.keys(store);
      await Promise.all(keys.map((key) => request(store.delete(key))));
      return keys.length;
    });
  }

  /** The index's distinct values, in order. */
  uniqueKeys(): Promise<IDBValidKey[]> {
    return this.run("r", (store) => {
      const keys: IDBValidKey[] = [];
      const cursor = this.source(store).openKeyCursor(this.range(), "nextunique");
      return new Promise((resolve, reject) => {
        cursor.onerror = () => reject(cursor.error);
        cursor.onsuccess = () => {
          const at = cursor.result;
          if (!at) return resolve(keys);
          keys.push(at.key);
          at.continue();
        };
      });
    });
  }
}

/** One object store. `K` is its primary key's type. */
export class Table<T, K extends IDBValidKey = IDBValidKey> {
  constructor(
    readonly name: string,
    private readonly run: StoreRunner,
    private readonly keyRanges: typeof IDBKeyRange,
  ) {}

  get(key: K): Promise<T | undefined> {
    return this.run("r", (store) => request(store.get(key) as IDBRequest<T | undefined>));
  }

  /** Inserts or replaces; answers the row's key. */
  put(row: T): Promise<K> {
    return this.run("rw", (store) => request(store.put(row)) as Promise<K>);
  }

  /** Inserts; refused (ConstraintError) when the key or a unique index's value is taken. */
  add(row: T): Promise<K> {
    return this.run("rw", (store) => request(store.add(row)) as Promise<K>);
  }

  delete(key: K): Promise<void> {
    return this.run("rw", async (store) => void (await request(store.delete(key))));
  }

  /** Changes some fields of a stored row; answers 1, or 0 when there is no such row. */
  update(key: K, changes: Partial<T>): Promise<0 | 1> {
    return this.run("rw", async (store) => {
      const row = (await request(store.get(key))) as T | undefined;
      if (row === undefined) return 0;
      await request(store.put({ ...row, ...changes }));
      return 1;
    });
  }

  /** Deletes every row. */
  clear(): Promise<void> {
    return this.run("rw", async (store) => void (await request(store.clear())));
  }

  toArray(): Promise<T[]> {
    return this.run("r", (store) => request(store.getAll() as IDBRequest<T[]>));
  }

  count(): Promise<number> {
    return this.run("r", (store) => request(store.count()));
  }

  /** The rows whose `index` holds one value: `where("userId").equals(id)`. */
  where(index: string): { equals(value: IDBValidKey): Query<T> } {
    return { equals: (value) => new Query<T>(this.run, this.keyRanges, index, value) };
  }

  /** Every row, in the order of `index` (or of the primary key, when that is named). */
  orderBy(index: string): Query<T> {
    return new Query<T>(this.run, this.keyRanges, index);
  }
}

/** A database's tables by name: `db.outbox`, and inside a transaction `tx.outbox`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Tables = Record<string, Table<any, any>>;

type Listener = (tables: readonly string[]) => void;

export interface DatabaseControl<S extends Tables> {
  readonly name: string;
  /** Opens (creating or upgrading) the database; later calls share the first one's answer. */
  open(): Promise<IDBDatabase>;
  close(): void;
  /**
   * Runs `work` in one transaction over `tables`: all of its writes land, or none (a throw
   * aborts). `work` may await only this transaction's requests: awaiting anything else (a
   * timer, the network) lets IndexedDB end the transaction.
   */
  transaction<R>(mode: Mode, tables: readonly (keyof S & string)[], work: (tx: S) => Promise<R>): Promise<R>;
  /** Called after each committed write with the tables it wrote, in this tab or another one. */
  onChange(listener: Listener): () => void;
}

export type Database<S extends Tables> = DatabaseControl<S> & S;

/** A private IndexedDB (a test's) is a browser of its own: its tabs hear only each other. */
const privateIds = new WeakMap<IDBFactory, string>();
function privateId(indexedDB: IDBFactory): string {
  if (!privateIds.has(indexedDB)) privateIds.set(indexedDB, crypto.randomUUID());
  return privateIds.get(indexedDB)!;
}

/** Dexie's store notation: the primary key first, then the indexes. */
function upgrade(db: IDBDatabase, tx: IDBTransaction, schema: Record<string, string>) {
  const path = (spec: string): string | string[] => (spec.startsWith("[") ? spec.slice(1, -1).split("+") : spec);
  for (const [table, spec] of Object.entries(schema)) {
    const [primary, ...indexes] = spec.split(",").map((part) => part.trim());
    const autoIncrement = primary.startsWith("++");
    const store = db.objectStoreNames.contains(table)
      ? tx.objectStore(table)
      : db.createObjectStore(table, { keyPath: path(primary.replace(/^\+\+/, "")), autoIncrement });
    for (const index of indexes) {
      const unique = index.startsWith("&");
      const indexName = index.replace(/^&/, "");
      if (!store.indexNames.contains(indexName)) store.createIndex(indexName, path(indexName), { unique });
    }
  }
}

/**
 * The database `name` with the tables `schema` names (Dexie's notation, see the top of this
 * file) at IndexedDB `version`. Opened on first use, so creating it touches nothing.
 * A schema change raises `version` (20 for what would be Dexie's 2): the upgrade then creates
 * the tables and indexes that are new. Removing or reshaping one needs its own migration here.
 */
export function database<S extends Tables>(
  name: string,
  version: number,
  schema: Record<keyof S & string, string>,
  factory: Partial<IndexedDbFactory> = {},
): Database<S> {
  const keyRanges = factory.IDBKeyRange ?? globalThis.IDBKeyRange;
  const names = Object.keys(schema);
  const listeners = new Set<Listener>();
  let opening: Promise<IDBDatabase> | null = null;
  let channel: BroadcastChannel | null = null;
  const tell = (tables: readonly string[]) => {
    for (const listener of listeners) listener(tables);
  };

  function open(): Promise<IDBDatabase> {
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = (factory.indexedDB ?? globalThis.indexedDB).open(name, version);
      req.onupgradeneeded = () => upgrade(req.result, req.transaction!, schema);
      req.onsuccess = () => {
        const db = req.result;
        // Another tab upgrades the schema, or the browser closes the database: open afresh next time.
        db.onversionchange = () => {
          db.close();
          opening = null;
        };
        db.onclose = () => {
          opening = null;
        };
        resolve(db);
      };
      req.onerror = () => reject(req.error);
    }).catch((error: unknown) => {
      opening = null;
      throw error;
    });
    return opening;
  }

  /** This tab hears of other tabs' writes, and they of this tab's, on one broadcast channel. */
  function broadcast(): BroadcastChannel | null {
    if (channel || typeof BroadcastChannel === "undefined") return channel;
    channel = new BroadcastChannel(`idb-changes:${name}${factory.indexedDB ? `:${privateId(factory.indexedDB)}` : ""}`);
    channel.onmessage = (event: MessageEvent<string[]>) => tell(event.data);
    // Node (the unit tests) would otherwise stay up for the channel.
    (channel as BroadcastChannel & { unref?: () => void }).unref?.();
    return channel;
  }

  /** One IDBTransaction around `work`; committed when `work` settles, aborted if it throws. */
  async function within<R>(mode: Mode, tables: readonly string[], work: (tx: IDBTransaction) => Promise<R>): Promise<R> {
    const tx = (await open()).transaction(tables, mode === "rw" ? "readwrite" : "readonly");
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error ?? new DOMException("The transaction was aborted", "AbortError"));
    });
    let result: R;
    try {
      result = await work(tx);
    } catch (error) {
      done.catch(() => undefined);
      try {
        tx.abort();
      } catch {
        // A failed request has aborted it already.
      }
      throw error;
    }
    await done;
    if (mode === "rw") {
      tell(tables);
      broadcast()?.postMessage(tables);
    }
    return result;
  }

  const tablesOver = (runner: (table: string) => StoreRunner): S =>
    Object.fromEntries(names.map((table) => [table, new Table(table, runner(table), keyRanges)])) as S;

  const control: DatabaseControl<S> = {
    name,
    open,
    close() {
      void opening?.then((db) => db.close()).catch(() => undefined);
      opening = null;
      channel?.close();
      channel = null;
    },
    transaction: (mode, tables, work) => within(mode, tables, (tx) => work(tablesOver((table) => (_mode, run) => run(tx.objectStore(table))))),
    onChange(listener) {
      listeners.add(listener);
      broadcast();
      return () => void listeners.delete(listener);
    },
  };
  // Outside a transaction, each call on a table is a transaction of its own.
  return Object.assign(tablesOver((table) => (mode, run) => within(mode, [table], (tx) => run(tx.objectStore(table)))), control);
}

/**
 * A query's answer, then a new one each time a table it reads is written (in this tab or
 * another); the same contract as Dexie's liveQuery, so `useObservable` takes either. A write
 * that lands while the query runs makes it run again before it answers.
 */
export function liveQuery<T>(db: Pick<DatabaseControl<Tables>, "onChange">, tables: readonly string[], query: () => Promise<T>) {
  return {
    subscribe(observer: { next: (value: T) => void; error?: (error: unknown) => void }): { unsubscribe(): void } {
      let closed = false;
      let running = false;
      let again = false;
      const run = async () => {
        if (running) {
          again = true;
          return;
        }
        running = true;
        do {
          again = false;
          try {
            const value = await query();
            if (!closed && !again) observer.next(value);
          } catch (error) {
            if (!closed && !again) observer.error?.(error);
          }
        } while (again && !closed);
        running = false;
      };
      const stop = db.onChange((changed) => {
        if (changed.some((table) => tables.includes(table))) void run();
      });
      void run();
      return {
        unsubscribe() {
          closed = true;
          stop();
        },
      };
    },
  };
}
