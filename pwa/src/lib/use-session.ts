import { useSyncExternalStore } from "react";
import { session, type Session } from "./session";

/** The current session, re-rendering on sign-in, sign-out and user updates. */
export function useSession(): Session | null {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}
