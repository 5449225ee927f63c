/**
 * The service worker (built by vite-plugin-pwa, injectManifest). It precaches what a voter's
 * phone needs offline (the page, the icons, every chunk of the voter's screens), answers every
 * app route with the cached index.html but never an /api address, drops the previous
 * release's precache, controls the first visit at once, caches candidate photos first, and
 * activates a waiting version only when the page asks (SKIP_WAITING).
 *
 * The staff screens' chunks (administrators', the polling station's) are in the manifest too,
 * marked `onDemand` (pwa/build/voter-precache.ts): a voter's first visit does not download
 * them. The first time a staff screen is opened online, the page asks (CACHE_STAFF_SCREENS)
 * and the worker caches all of them, so that device then opens every staff screen offline;
 * a later release caches its own during install on such a device.
 *
 * For the first visit on a slow link (bench/first-visit.ts): Workbox precaches its files one
 * after another, a round trip each. Before that pass, the install fetches every
 * content-hashed file six at a time into the HTTP cache (they are served immutable), so
 * Workbox's own requests for them are answered from it. A warm-up fetch that fails costs
 * nothing: Workbox's pass fetches that file again. The build keeps the voter's files few
 * (pwa/build/voter-chunks.ts), so both passes are a handful of requests.
 */
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { clientsClaim } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst } from "workbox-strategies";
import { keepWorkerCopy, WORKER_COPIES } from "./offline/worker-copy";

/** The parts of ServiceWorkerGlobalScope used here (the project's type set is the DOM's). */
interface WorkerScope {
  __WB_MANIFEST: (string | (PrecacheEntry & { onDemand?: true }))[];
  location: Location;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "message", listener: (event: MessageEvent & ExtendableEvent) => void): void;
  skipWaiting(): Promise<void>;
}
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
declare const self: WorkerScope;

const WARM_UP_CONCURRENCY = 6;

// Named once: the build replaces this one reference with the list.
const entries = self.__WB_MANIFEST;
const manifest = entries.filter((entry) => typeof entry === "string" || !entry.onDemand);
/** The staff screens' files, as absolute URLs. */
const staffScreens = new Set(
  entries.flatMap((entry) => (typeof entry !== "string" && entry.onDemand ? [new URL(entry.url, self.location.href).href] : [])),
);
const STAFF_CACHE = "staff-screens";

/** Runs `task` on every url, `WARM_UP_CONCURRENCY` at a time; says how many failed. */
async function eachInParallel(urls: string[], task: (url: string) => Promise<unknown>): Promise<number> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++];
      try {
        await task(url);
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: WARM_UP_CONCURRENCY }, worker));
  return failed;
}

/** Fetches `urls` into the HTTP cache; failures are left to Workbox's own pass. */
const warmHttpCache = (urls: string[]) =>
  eachInParallel(urls, async (url) => (await fetch(url, { credentials: "same-origin" })).arrayBuffer());

let staffFill: Promise<void> | null = null;
/**
 * Caches every staff screen's file of this release that is not cached yet (the previous
 * releases' ones go at activation). Once per worker, unless a download failed: the next ask
 * tries again.
 */
function cacheStaffScreens(): Promise<void> {
  staffFill ??= (async () => {
    const cache = await caches.open(STAFF_CACHE);
    const held = new Set((await cache.keys()).map((request) => request.url));
    const failed = await eachInParallel([...staffScreens].filter((url) => !held.has(url)), (url) => cache.add(url));
    if (failed > 0) staffFill = null;
  })();
  return staffFill;
}

/** Whether this device has opened a staff screen before (its cache holds some of their files). */
const hasStaffScreens = async () => (await (await caches.open(STAFF_CACHE)).keys()).length > 0;

// Registered before Workbox's own install listener: both run, this one in parallel.
self.addEventListener("install", (event) => {
  // Revisioned entries (index.html, the manifest, icons) are fetched by Workbox with
  // cache: 'reload', past the HTTP cache: warming them would only download them twice.
  const hashed = manifest.flatMap((entry) => (typeof entry === "string" ? [entry] : entry.revision ? [] : [entry.url]));
  event.waitUntil(warmHttpCache(hashed));
  // A staff device gets the new release's staff screens with the rest of the update.
  event.waitUntil(hasStaffScreens().then((staff) => (staff ? cacheStaffScreens() : undefined)));
});

self.addEventListener("activate", (event) => {
  // The previous releases' staff files (content-hashed names this release no longer lists).
  event.waitUntil(
    caches.open(STAFF_CACHE).then(async (cache) => {
      for (const request of await cache.keys()) if (!staffScreens.has(request.url)) await cache.delete(request);
    }),
  );
});

self.addEventListener("message", (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === "SKIP_WAITING") void self.skipWaiting();
  if (type === "CACHE_STAFF_SCREENS") event.waitUntil(cacheStaffScreens().catch(() => undefined));
});

clientsClaim();
// Workbox fetches its precache one file after another, and the revisioned files (the page,
// the icons, the web manifest) past the HTTP cache: they go first, while the warm-up above
// downloads the hashed ones beside them, which are then answered from the HTTP cache.
const revisioned = (entry: (typeof manifest)[number]) => typeof entry !== "string" && Boolean(entry.revision);
precacheAndRoute([...manifest.filter(revisioned), ...manifest.filter((entry) => !revisioned(entry))]);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL("/index.html"), { denylist: [/^\/api(\/|$)/] }));
/**
 * The ballot and the voter's votes as last answered: the page keeps its own copy in IndexedDB,
 * but only once it is idle, which a slow phone reaches seconds after the ballot is on screen.
 * The worker keeps each answer as it passes, off the page's main thread, so a voter who has
 * seen the ballot can open it and vote offline from that moment. One voter's copy at a time,
 * marked with a hash of the token it was read with (src/offline/worker-copy.ts reads it back
 * when the network fails); the page deletes the cache when the session ends. A failed request
 * stays a failure here: the page says the data is the device's.
 */
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && WORKER_COPIES.has(url.pathname),
  async ({ request, event }) => {
    const response = await fetch(request);
    const token = request.headers.get("authorization");
    if (response.status === 200 && token) (event as unknown as ExtendableEvent).waitUntil(keepWorkerCopy(request.url, token, response.clone()).catch(() => undefined));
    return response;
  },
  "GET",
);
registerRoute(
  // Candidate photos: immutable per URL (a new photo is a new URL), so cache first; the vote
  // page prefetches them so faces show offline.
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/api/photos/"),
  new CacheFirst({
    cacheName: "candidate-photos",
    plugins: [new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60 }), new CacheableResponsePlugin({ statuses: [200] })],
  }),
  "GET",
);
registerRoute(
  // The verifiable ballot's worker (not precached: build/voter-precache.ts): the vote page fetches
  // it when the ballot has a verifiable position, and from then on it comes from here, offline too.
  // Content-hashed, so never stale; the last two releases' copies are kept.
  ({ url, sameOrigin }) => sameOrigin && /\/assets\/ballot-worker-[\w-]+\.js$/.test(url.pathname),
  new CacheFirst({
    cacheName: "verifiable-ballot",
    plugins: [new ExpirationPlugin({ maxEntries: 2 }), new CacheableResponsePlugin({ statuses: [200] })],
  }),
  "GET",
);
registerRoute(
  // A staff screen's file: from the cache once it holds it (content-hashed, so never stale).
  ({ url, sameOrigin }) => sameOrigin && staffScreens.has(url.href),
  new CacheFirst({ cacheName: STAFF_CACHE, plugins: [new CacheableResponsePlugin({ statuses: [200] })] }),
  "GET",
);
