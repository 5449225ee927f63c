import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { api } from "../api/client";
import { forgetUserOnDevice, queuedVoteCount } from "./device-data";
import { logoutWarning } from "./logout-warning";
import { session } from "../auth/session";

export { logoutWarning };

/**
 * 'Logout': when votes are still waiting to be sent, first warn (LogoutWarning) with a way to
 * stay signed in; otherwise sign out at once. Used by every Logout button.
 */
export function useLogout() {
  const finish = useFinishLogout();
  return () => {
    const userId = session.user()?._id;
    if (!userId) return finish();
    void queuedVoteCount(userId).then(
      (queued) => (queued > 0 ? logoutWarning.set(queued) : finish()),
      // The store cannot say whether a vote waits: sign out, but wipe nothing it may hold, as
      // after any other end of a session (a queued vote is then sent when this voter is back).
      () => finish({ keepQueued: true }),
    );
  };
}

/**
 * Revokes the token server-side (best effort), forgets the session and wipes the user's data
 * from this device (with `keepQueued`, all but the votes waiting to be sent), goes to /login.
 */
export function useFinishLogout() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return ({ keepQueued = false }: { keepQueued?: boolean } = {}) => {
    logoutWarning.set(0);
    // The request captures the token synchronously, so clearing right after is safe.
    void api.logout().catch(() => undefined);
    const userId = session.user()?._id ?? null;
    session.clear();
    client.clear();
    // With keepQueued the session watcher (watchSessionEnd) keeps only the outbox.
    if (userId && !keepQueued) void forgetUserOnDevice(userId).catch((error) => console.warn("Could not clear this device's data", error));
    void navigate({ to: "/login", replace: true });
  };
}
