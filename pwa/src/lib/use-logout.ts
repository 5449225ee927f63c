import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { api } from "./api-client";
import { session } from "./session";

/** Revokes the token server-side (best effort), forgets the session and cached data, goes to /login. */
export function useLogout() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return () => {
    // The request captures the token synchronously, so clearing right after is safe.
    void api.logout().catch(() => undefined);
    const userId = session.user()?._id ?? null;
    session.clear();
    client.clear();
    // This device forgets the voter's data too, except votes not yet sent (kept for next sign-in).
    if (userId && typeof indexedDB !== "undefined") {
      void import("./offline").then((offline) => offline.getOffline().signedOut(userId)).catch(() => undefined);
    }
    void navigate({ to: "/login", replace: true });
  };
}
