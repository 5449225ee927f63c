/**
 * A first visit leaves the device offline-ready: the service worker built from
 * pwa/src/sw.ts takes control of the very first page, its precache holds every file of its
 * manifest but the staff screens' (cached when one is first opened), and with the network cut
 * the app opens from it. The timing on a slow link is the bench's business
 * (bench/first-visit.ts); this checks the behaviour.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { openBrowser, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { swManifest } from "./support/server-api";

let server: RunningServer;

/** The paths the built service worker precaches, as its manifest lists them. */
const precacheManifest = () => swManifest().precached;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser(server.baseURL);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test("the first page is controlled with the whole precache, and the app then opens offline", async () => {
  const { page, context } = browser;
  const manifest = precacheManifest();
  expect(manifest.length).toBeGreaterThan(10);
  expect(manifest).toContain("index.html");

  await page.goto("/login");
  await page.getByLabel("Matriculation Number").waitFor();
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const name = (await caches.keys()).find((n) => n.includes("precache"));
          const cached = name ? (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname.slice(1)) : [];
          return { controlled: navigator.serviceWorker.controller?.state === "activated", cached };
        }),
      { timeout: 60_000, interval: 250 },
    )
    .toMatchObject({ controlled: true });
  const cached = await page.evaluate(async () => {
    const name = (await caches.keys()).find((n) => n.includes("precache"))!;
    return (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname.slice(1));
  });
  for (const url of manifest) expect(cached, url).toContain(url);
  // The staff screens' files are not downloaded on a voter's first visit.
  const staff = swManifest().onDemand;
  expect(staff.length).toBeGreaterThan(5);
  for (const url of staff) expect(cached, url).not.toContain(url);
  expect(await page.evaluate(async () => (await (await caches.open("staff-screens")).keys()).length)).toBe(0);

  await context.setOffline(true);
  try {
    await page.reload();
    await page.getByLabel("Matriculation Number").waitFor();
    // Any app route opens from the cached shell, and /api is never answered with it.
    await page.goto("/results");
    await page.locator("#root").waitFor();
    expect(await page.evaluate(() => fetch("/api/health").then((r) => r.status).catch(() => "network error"))).toBe("network error");
  } finally {
    await context.setOffline(false);
  }
});

test("every script the app ships asks the browser to compile it all while it downloads", async () => {
  // V8's explicit compile hint (pwa/vite.config.ts, postBanner): functions are compiled on the
  // streaming thread instead of on the main thread the first time each one is called.
  const { precached, onDemand } = swManifest();
  const scripts = [...precached, ...onDemand].filter((url) => url.endsWith(".js"));
  expect(scripts.length).toBeGreaterThan(10);
  for (const url of scripts) {
    const body = await (await fetch(`${server.baseURL}/${url}`)).text();
    expect(body.startsWith("//# allFunctionsCalledOnLoad\n"), url).toBe(true);
  }
});
