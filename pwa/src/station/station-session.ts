/**
 * The open station session, in memory only: the non-extractable ballot key, the session id and
 * the device's clock correction. A reload forgets it on purpose (the key never touches storage),
 * so the officer opens the station again; queued ballots are still delivered without it.
 * A tiny external store for useSyncExternalStore.
 */
export interface LiveStation {
  sessionId: string;
  key: CryptoKey;
  station: { _id: string; name: string };
  /** Server time minus device time at opening: castAt = Date.now() + clockOffset. */
  clockOffset: number;
  /** The officer's sign-in ends here (server time); no ballot may be cast after it. */
  expiresAt: number;
}

let live: LiveStation | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const stationSession = {
  get: () => live,
  set(next: LiveStation | null) {
    live = next;
    emit();
  },
  /** Server time now, as this device reckons it. */
  now: (deviceNow = Date.now()) => deviceNow + (live?.clockOffset ?? 0),
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
