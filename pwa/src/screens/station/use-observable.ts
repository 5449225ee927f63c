/** The latest value of a liveQuery (or any subscribable), `initial` until the first one. */
import { useEffect, useState } from "react";

interface Subscribable<T> {
  subscribe(observer: { next: (value: T) => void; error?: (e: unknown) => void }): { unsubscribe(): void };
}

export function useObservable<T>(make: () => Subscribable<T>, initial: T, deps: unknown[] = []): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    const sub = make().subscribe({ next: setValue, error: () => undefined });
    return () => sub.unsubscribe();
    // The caller's own dependency list: a new subscription whenever one of them changes.
  }, deps);
  return value;
}
