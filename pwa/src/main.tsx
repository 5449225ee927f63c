// First: configures zod before any chunk that uses it loads (see the file).
import "./lib/zod-jitless";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { clearOnSessionChange, queryClient } from "./data/query-client";
import { mutationKeys } from "./data/query-keys";
import { addBusyCheck, getAppShell } from "./offline/app/shell";
import { isStaffPath } from "./offline/sw-registration";
import { connectOutcomes } from "./data/outcomes";
import { watchSessionEnd } from "./data/device-data";
import { createAppRouter } from "./router";
import { nextTask } from "./lib/page-idle";
import "./styles.css";

clearOnSessionChange(queryClient);
// A new version never reloads the page while a vote is being cast.
addBusyCheck(() => queryClient.isMutating({ mutationKey: mutationKeys.castVote }) > 0);
// A session that ends without 'Logout' (401, another tab) leaves only its unsent votes here.
watchSessionEnd();

/**
 * Start-up as a row of short tasks, the static splash from index.html on screen throughout:
 * evaluating the modules above is one task; building the router the next; then the router
 * resolves the route before React renders anything (its guards, loaders and lazy chunks), so
 * the first render already holds the page and runs as a transition, in slices that let the
 * browser in between. Rendering first and letting the router fill the page in afterwards would
 * build the whole page in one blocking render: the router's updates to React cannot be sliced.
 * The service worker and the vote outbox start after that, each in a task of its own.
 */
async function start() {
  const router = createAppRouter(queryClient);
  await nextTask(undefined);
  // A route that fails to load renders its error; one that redirects has navigated already.
  await router.load().catch(() => undefined);
  await nextTask(undefined);
  const root = createRoot(document.getElementById("root")!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    );
  });
  // The service worker (app shell offline, install, updates), then the vote outbox (replays
  // what was queued, tells the voter how each queued vote ended).
  await nextTask(undefined);
  const shell = getAppShell();
  // Staff screens are cached for offline use once one is opened (src/sw.ts).
  const staffScreen = (pathname: string) => isStaffPath(pathname) && shell.cacheStaffScreens();
  staffScreen(router.state.location.pathname);
  router.subscribe("onResolved", ({ toLocation }) => staffScreen(toLocation.pathname));
  await nextTask(undefined);
  connectOutcomes(queryClient);
}

setTimeout(() => void start(), 0);
