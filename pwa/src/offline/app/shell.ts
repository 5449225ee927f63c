/**
 * The service worker shell (install prompt, new-version notice), registered once at start.
 * Separate from ./runtime.ts so registering it costs the first load no IndexedDB code.
 */
import { registerAppShell, type AppShell } from "../sw-registration";
import { mutationKeys } from "../../data/query-keys";
import { queryClient } from "../../data/query-client";

/** Set by the offline runtime once it starts: true while the outbox is sending. */
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
