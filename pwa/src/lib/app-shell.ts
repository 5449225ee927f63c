/**
 * The service worker shell (install prompt, new-version notice), registered once at start.
 * Separate from lib/offline.ts so registering it costs the first load no IndexedDB code.
 */
import { registerAppShell, type AppShell } from "../offline/app-shell";
import { mutationKeys } from "./query-keys";
import { queryClient } from "./query-client";

/** Set by lib/offline.ts users: true while the outbox is sending. */
let outboxBusy: () => boolean = () => false;
export function setOutboxBusy(check: () => boolean) {
  outboxBusy = check;
}

let shell: AppShell | null = null;

export function getAppShell(): AppShell {
  // An update never reloads the page while a vote is being cast or sent.
  shell ??= registerAppShell({
    isBusy: () => outboxBusy() || queryClient.isMutating({ mutationKey: mutationKeys.castVote }) > 0,
  });
  return shell;
}
