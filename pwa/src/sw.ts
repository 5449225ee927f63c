/**
 * The service worker (built by vite-plugin-pwa, injectManifest). What it does is what the
 * generated worker did before: precache the shell (code and markup; icons come from the
 * manifest), answer every app route with the cached index.html but never an /api address,
 * drop the previous release's precache, control the first visit at once, cache candidate
 * photos first, and activate a waiting version only when the page asks (SKIP_WAITING).
 *
 * One addition, for the first visit on a slow link (bench/first-visit.ts): Workbox
 * precaches its files one after another, so 80-odd files cost 80-odd round trips (16 s at
 * 150 ms RTT; far longer on a loaded server, where one failed file failed the whole install).
 * Before that pass, the install fetches every content-hashed file six at a time into the
 * HTTP cache (they are served immutable), so Workbox's own requests for them are answered
 * from it. A warm-up fetch that fails costs nothing: Workbox's pass fetches that file again.
 */
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { clientsClaim } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst } from "workbox-strategies";

/** The parts of ServiceWorkerGlobalScope used here (the project's type set is the DOM's). */
interface WorkerScope {
  __WB_MANIFEST: (string | PrecacheEntry)[];
  addEventListener(type: "install", listener: (event: Event & { waitUntil(work: Promise<unknown>): void }) => void): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  skipWaiting(): Promise<void>;
}
declare const self: WorkerScope;

const WARM_UP_CONCURRENCY = 6;

const manifest = self.__WB_MANIFEST;

/** Fetches `urls` into the HTTP cache, `WARM_UP_CONCURRENCY` at a time; failures are left to Workbox. */
async function warmHttpCache(urls: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++];
      try {
        await (await fetch(url, { credentials: "same-origin" })).arrayBuffer();
      } catch {
        // Workbox's own pass fetches it again and decides.
      }
    }
  };
  await Promise.all(Array.from({ length: WARM_UP_CONCURRENCY }, worker));
}

// Registered before Workbox's own install listener: both run, this one in parallel.
self.addEventListener("install", (event) => {
  // Revisioned entries (index.html, the manifest, icons) are fetched by Workbox with
  // cache: 'reload', past the HTTP cache: warming them would only download them twice.
  const hashed = manifest.flatMap((entry) => (typeof entry === "string" ? [entry] : entry.revision ? [] : [entry.url]));
  event.waitUntil(warmHttpCache(hashed));
});

self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

clientsClaim();
precacheAndRoute(manifest);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL("/index.html"), { denylist: [/^\/api(\/|$)/] }));
registerRoute(
  // Candidate photos: immutable per URL (a new photo is a new URL), so cache first; the vote
  // page prefetches them so faces show offline. API data is not cached here: IndexedDB keeps it
  // per user (src/offline).
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/api/photos/"),
  new CacheFirst({
    cacheName: "candidate-photos",
    plugins: [new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60 }), new CacheableResponsePlugin({ statuses: [200] })],
  }),
  "GET",
);
