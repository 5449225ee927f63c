/**
 * What the station device knows about the server: whether it answered lately ('Online' means
 * the server answered, not that the browser has a network), and why the station ended when
 * the server said so (revoked, officer unassigned, session closed). A tiny external store.
 */
import { messages } from "@evoting/shared";
import { ApiRequestError, request } from "../api/client";
import { stationApi } from "./station-api";
import { stationSession } from "./station-session";

interface LinkState {
  /** null until the first answer or failure. */
  reachable: boolean | null;
  /** The station the server ended on this device, and why, in its words. */
  ended: { stationId: string; message: string } | null;
}

let state: LinkState = { reachable: null, ended: null };
const listeners = new Set<() => void>();
const update = (next: Partial<LinkState>) => {
  if (Object.entries(next).every(([k, v]) => state[k as keyof LinkState] === v)) return;
  state = { ...state, ...next };
  listeners.forEach((l) => l());
};

/** Answers that say the open station session is over for this device. */
const ENDING: readonly string[] = [messages.stationRevoked, messages.stationNotAssigned, messages.stationSessionEnded];

export const stationLink = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  /** A request reached the server (any status) or did not (network error, timeout). */
  heard: (reachable: boolean) => update({ reachable }),
  /** The server says the station `stationId` is over: the device takes no more ballots for it. */
  ended(stationId: string, message: string) {
    if (!ENDING.includes(message) || stationSession.get()?.station._id !== stationId) return;
    stationSession.end();
    update({ ended: { stationId, message } });
  },
  clearEnded: () => update({ ended: null }),
};

/** Sorts a failed call: the server's answer (reachable) or no answer. */
export function heardFrom(error: unknown): error is ApiRequestError {
  const answered = error instanceof ApiRequestError && error.fromServer;
  stationLink.heard(answered);
  return answered;
}

const PING_MS = 4_000;

/** Asks the server whether the open station session still holds, or just whether it answers. */
export async function checkLink(): Promise<void> {
  const live = stationSession.get();
  try {
    if (live) await stationApi.status(live.sessionId, AbortSignal.timeout(PING_MS));
    else await request("/health", { signal: AbortSignal.timeout(PING_MS), signOutOn401: false });
    stationLink.heard(true);
  } catch (error) {
    if (live && heardFrom(error)) stationLink.ended(live.station._id, error.message);
    else if (!live) stationLink.heard(false);
  }
}
