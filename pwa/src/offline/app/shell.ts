/**
 * The service worker shell (install prompt, new-version notice), registered once at start.
 * Separate from ./runtime.ts so registering it costs the first load no IndexedDB code.
 */
import { registerAppShell, type AppShell } from "../sw-registration";

/**
 * What must not be cut short by a new version's reload: the outbox sending (the runtime adds
 * it) and a vote being cast (main.tsx adds the cast mutation).
 */
const busyChecks = new Set<() => boolean>();
export function addBusyCheck(check: () => boolean): () => void {
  busyChecks.add(check);
  return () => {
    busyChecks.delete(check);
  };
}

let shell: AppShell | null = null;

export function getAppShell(): AppShell {
  // An update never reloads the page while a vote is being cast or sent.
  shell ??= registerAppShell({ isBusy: () => [...busyChecks].some((busy) => busy()) });
  return shell;
}
