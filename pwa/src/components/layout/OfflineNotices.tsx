/**
 * Notices above every signed-in screen: data shown from this device's copy ('Offline: showing
 * data from HH:MM'), a new version waiting (reloaded only on request, never mid-vote), and
 * queued votes that need the voter to sign in again before they can be sent, or that this
 * browser has not promised to keep.
 */
import { useEffect, useSyncExternalStore } from "react";
import { getAppShell } from "../../offline/app/shell";
import { freshness, offlineNotice } from "../../offline/freshness";
import { offlineText } from "../../offline/notices";
import { useOfflineRuntime, useOptionalStore } from "../../offline/app/use-offline";
import { Button } from "../ui/Button";

const noSync = { authRequired: 0 };

function useOfflineSince(): number | null {
  useSyncExternalStore(freshness.subscribe, freshness.getSnapshot, freshness.getSnapshot);
  useEffect(() => {
    // Back online: the screens refetch on reconnect; until one fails again, the notice goes.
    const onOnline = () => freshness.reset();
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, []);
  return freshness.oldestCached();
}

export function OfflineNotices() {
  const since = useOfflineSince();
  const shell = getAppShell();
  const { updateReady } = useSyncExternalStore(shell.state.subscribe, shell.state.getSnapshot, shell.state.getSnapshot);
  const runtime = useOfflineRuntime();
  const { authRequired } = useOptionalStore<{ authRequired: number }>(runtime?.sync, noSync);
  const atRisk = useOptionalStore<boolean>(runtime?.atRisk, false);

  return (
    <div className="space-y-3 empty:hidden [&:not(:empty)]:mb-6">
      {since !== null && (
        <p role="status" data-testid="offline-notice" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">
          {offlineNotice(since)}
        </p>
      )}
      {authRequired > 0 && (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {offlineText.signInToSend}
        </p>
      )}
      {atRisk && (
        <p role="alert" data-testid="queued-at-risk" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">
          {offlineText.atRisk}
        </p>
      )}
      {updateReady && (
        <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-900">
          <span>{offlineText.updateReady}</span>
          <Button size="sm" onClick={() => void shell.applyUpdate()}>
            Reload
          </Button>
        </div>
      )}
    </div>
  );
}
