// First: configures zod before any chunk that uses it loads (see the file).
import "./lib/zod-jitless";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { clearOnSessionChange, queryClient } from "./lib/query-client";
import { getAppShell } from "./lib/app-shell";
import { connectOutcomes } from "./lib/offline-outcomes";
import { watchSessionEnd } from "./lib/device-data";
import { createAppRouter } from "./router";
import "./styles.css";

clearOnSessionChange(queryClient);
// A session that ends without 'Logout' (401, another tab) leaves only its unsent votes here.
watchSessionEnd();

function start() {
  const router = createAppRouter(queryClient);
  // A transition lets React yield while it builds the first screen, so the page stays
  // responsive (short tasks) while the static splash from index.html is showing.
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

  // After the first render: the service worker (app shell offline, install, updates) and the
  // vote outbox (replays what was queued, tells the voter how each queued vote ended).
  getAppShell();
  connectOutcomes(queryClient);
}

// Evaluating the modules above (React, the router, the query client) is one task; building the
// router and starting the first render is the next one: two shorter tasks on a slow phone
// instead of one long one, with the splash on screen throughout.
setTimeout(start, 0);
