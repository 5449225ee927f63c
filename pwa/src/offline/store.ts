/**
 * A minimal external store: `subscribe` and `getSnapshot` are exactly what React's
 * useSyncExternalStore takes, so a component reads offline state with one line and this
 * folder stays free of React.
 */
export interface ReadableStore<T> {
  getSnapshot(): T;
  subscribe(listener: () => void): () => void;
}

export interface WritableStore<T> extends ReadableStore<T> {
  set(next: T): void;
}

export function createStore<T>(initial: T): WritableStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
