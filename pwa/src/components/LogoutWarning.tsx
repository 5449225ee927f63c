import { lazy, Suspense, useSyncExternalStore } from "react";
import { logoutWarning } from "../data/logout-warning";

const LogoutWarningDialog = lazy(() => import("./LogoutWarningDialog"));

/**
 * The warning 'Logout' raises while votes are still queued on this device (LogoutWarningDialog).
 * Mounted at the root, so its dialog code is fetched only when it opens: every page, /login
 * included, would otherwise carry Radix's dialog in its first load (150 KB budget).
 */
export function LogoutWarning() {
  const queued = useSyncExternalStore(logoutWarning.subscribe, logoutWarning.getSnapshot);
  if (queued === 0) return null;
  return (
    <Suspense fallback={null}>
      <LogoutWarningDialog queued={queued} />
    </Suspense>
  );
}
