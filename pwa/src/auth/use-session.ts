import { useSyncExternalStore } from "react";
import { canWriteAdmin } from "@evoting/shared";
import { session, type Session } from "./session";

/** The current session, re-rendering on sign-in, sign-out and user updates. */
export function useSession(): Session | null {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

/** Whether the signed-in user may change things (admins); observers get every write hidden. */
export function useCanWriteAdmin(): boolean {
  return canWriteAdmin(useSession()?.user.role);
}
