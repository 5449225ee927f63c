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

/**
 * `same` decides when a new value changes nothing: then subscribers are not told and the
 * snapshot stays the same object (an external store's update re-renders in one task React
 * cannot slice).
 */
export function createStore<T>(initial: T, same: (a: T, b: T) => boolean = Object.is): WritableStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => value,
    set(next) {
      if (same(value, next)) return;
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
