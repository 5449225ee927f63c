/**
 * The voter's Belenios credential on this device: typed (or scanned) once, then used by every
 * verifiable position's card. It is kept in the device store with the rest of the voter's data
 * and goes with it at every end of session (offline/db.ts); a memory copy serves the cards and
 * the browsers without IndexedDB, and is dropped as soon as the signed-in user changes.
 */
import { useEffect, useSyncExternalStore } from "react";
import { session } from "../auth/session";
import { loadOffline } from "../offline/app/load";

interface State {
  userId: string | null;
  credential: string | null;
  loaded: boolean;
}

const EMPTY: State = { userId: null, credential: null, loaded: false };
let state: State = EMPTY;
const listeners = new Set<() => void>();

function set(next: State) {
  state = next;
  for (const listener of listeners) listener();
}

let watching = false;
function watchSession() {
  if (watching) return;
  watching = true;
  session.subscribe(() => {
    if ((session.user()?._id ?? null) !== state.userId) set(EMPTY);
  });
}

const hasStore = () => typeof indexedDB !== "undefined";

async function load(userId: string): Promise<void> {
  if (state.userId === userId) return;
  set({ userId, credential: null, loaded: false });
  let credential: string | null = null;
  if (hasStore()) {
    try {
      credential = await (await loadOffline()).readCredential(userId);
    } catch (error) {
      console.warn("Could not read the credential kept on this device", error);
    }
  }
  if (state.userId === userId && !state.loaded) set({ userId, credential, loaded: true });
}

/** Keeps the credential (null forgets it) for the signed-in voter. */
export async function saveCredential(userId: string, credential: string | null): Promise<void> {
  set({ userId, credential, loaded: true });
  if (!hasStore()) return;
  try {
    await (await loadOffline()).keepCredential(userId, credential);
  } catch (error) {
    console.warn("Could not keep the credential on this device", error);
  }
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => state;

/** The signed-in voter's credential (null until typed), and whether the device was read yet. */
export function useCredential(): { credential: string | null; loaded: boolean } {
  const userId = useSyncExternalStore(session.subscribe, () => session.user()?._id ?? null, () => null);
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);
  useEffect(() => {
    watchSession();
    if (userId) void load(userId);
  }, [userId]);
  return current.userId === userId && userId !== null ? { credential: current.credential, loaded: current.loaded } : { credential: null, loaded: false };
}

/** Tests: start again. */
export function resetCredentialState(): void {
  set(EMPTY);
}
