/**
 * `node --import tsx bench/first-visit.ts`: a voter's first visit on a slow mobile link. For each
 * run, a fresh Chromium profile opens /login through a relay shaped like Lighthouse's mobile
 * link (1.6 Mbps down, 750 kbps up, 150 ms RTT: bench/lib/shaper.ts) and the bench times:
 *   load          the page's load event;
 *   sign-in form  the app has drawn the sign-in form over the splash (the voter can type);
 *   offline-ready the service worker controls the page AND its precache holds every file of
 *                 the manifest (the app now opens with no network).
 * Also prints the precache's size (raw and gzip) from the built service worker.
 *
 *   npm run build && node --import tsx bench/first-visit.ts [--runs=5] [--cpu-slowdown=1] [--timeout=90]
 * `--cpu-slowdown=N` slows the page's CPU N times (Chromium's CPU throttling), as on a cheap
 * phone or a saturated machine.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { intArg, parseArgs } from "./lib/args.ts";
import { ROOT, startServer } from "./lib/server.ts";
import { SLOW_MOBILE, startShaper } from "./lib/shaper.ts";
import { tempDir } from "./lib/seed.ts";

const args = parseArgs();
const runs = intArg(args, "runs", 5);
const slowdown = intArg(args, "cpu-slowdown", 1);
const timeoutMs = intArg(args, "timeout", 90) * 1000;
const dist = join(ROOT, "pwa/dist");
if (!existsSync(join(dist, "sw.js"))) throw new Error("No built service worker: run `npm run build` first.");

// The precache manifest as workbox-build wrote it into sw.js.
const manifest = [...readFileSync(join(dist, "sw.js"), "utf8").matchAll(/"?url"?:"([^"]+)"/g)].map((m) => m[1]);
let raw = 0;
let gzip = 0;
for (const url of manifest) {
  const bytes = readFileSync(join(dist, url));
  raw += bytes.length;
  gzip += gzipSync(bytes).length;
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`first visit: ${runs} runs, link ${SLOW_MOBILE.downKbps / 1000} Mbps down / ${SLOW_MOBILE.upKbps} kbps up / ${SLOW_MOBILE.rttMs} ms RTT, CPU slowdown ${slowdown}x, load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
console.log(`precache: ${manifest.length} files, ${kb(raw)} raw, ${kb(gzip)} gzip`);

const scratch = tempDir("first-visit");
const server = await startServer({ dbPath: scratch.dbPath });
const shaper = await startShaper(server.url);
const results: { load: number; form: number; ready: number | null; bytes: number }[] = [];
try {
  for (let run = 1; run <= runs; run++) {
    const profile = mkdtempSync(join(tmpdir(), "evoting-first-visit-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      viewport: { width: 390, height: 844 },
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      if (slowdown > 1) await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: slowdown });
      const before = shaper.downBytes();
      const started = performance.now();
      let load = NaN;
      page.once("load", () => (load = performance.now() - started));
      let form = NaN;
      void page
        .waitForSelector("#root form input", { timeout: timeoutMs })
        .then(() => (form = performance.now() - started))
        .catch(() => undefined);
      await page.goto(`${shaper.url}/login`, { waitUntil: "commit", timeout: timeoutMs });
      let ready: number | null = null;
      const deadline = started + timeoutMs;
      while (ready === null && performance.now() < deadline) {
        const state = await page
          .evaluate(async () => {
            const controller = navigator.serviceWorker?.controller;
            const name = (await caches.keys()).find((n) => n.includes("precache"));
            const cached = name ? (await (await caches.open(name)).keys()).length : 0;
            return { controlled: controller?.state === "activated", cached };
          })
          .catch(() => ({ controlled: false, cached: 0 })); // mid-navigation
        if (state.controlled && state.cached >= manifest.length) ready = performance.now() - started;
        else await new Promise((r) => setTimeout(r, 100));
      }
      const bytes = shaper.downBytes() - before;
      results.push({ load, form, ready, bytes });
      console.log(`run ${run}: load ${Math.round(load)} ms, sign-in form ${Math.round(form)} ms, offline-ready ${ready === null ? `NOT within ${timeoutMs / 1000} s` : `${Math.round(ready)} ms`}, ${kb(bytes)} over the link`);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }
} finally {
  await shaper.close();
  await server.stop();
  scratch.cleanup();
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};
const ready = results.map((r) => r.ready).filter((r): r is number => r !== null);
console.log(
  `median: load ${Math.round(median(results.map((r) => r.load)))} ms, sign-in form ${Math.round(median(results.map((r) => r.form)))} ms, offline-ready ${Math.round(median(ready))} ms (${ready.length}/${results.length} runs offline-ready)`,
);
console.log(`Targets:\n  ${ready.length === results.length && median(ready) < 10_000 ? "MET   " : "MISSED"}  offline-ready within 10 s: median ${Math.round(median(ready))} ms, ${results.length - ready.length} runs never\n  ${gzip < 500 * 1024 ? "MET   " : "MISSED"}  precache < 500 KB gzip: ${kb(gzip)}`);
