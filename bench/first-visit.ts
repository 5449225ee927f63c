/**
 * `node --import tsx bench/first-visit.ts`: a voter's first visit on a slow mobile link. For each
 * run, a fresh Chromium profile opens /login through a relay shaped like Lighthouse's mobile
 * link (1.6 Mbps down, 750 kbps up, 150 ms RTT: bench/lib/shaper.ts), signs in as a seeded
 * voter (`npm run seed:demo`'s election: 2-4 candidates with photos per position) as soon as
 * the form is there, and the bench times:
 *   load           the page's load event;
 *   sign-in form   the app has drawn the sign-in form over the splash (the voter can type);
 *   shell ready    the service worker controls the page AND its precache holds every file of
 *                  its manifest (the app now opens with no network);
 *   offline-ready  shell ready, AND the device holds the signed-in voter's ballot (IndexedDB)
 *                  and every candidate photo on it (the worker's photo cache): the voter can
 *                  now open the ballot and vote with no network.
 * Before the runs another seeded voter signs in once, as on a server that has been up.
 * Also prints the precache's size (raw and gzip, as the server sends it) from the built
 * service worker; the staff screens' files it caches only when one is opened are not in it.
 *
 *   npm run build && node --import tsx bench/first-visit.ts [--runs=5] [--cpu-slowdown=1] [--timeout=90]
 * `--cpu-slowdown=N` slows the page's CPU N times (Chromium's CPU throttling), as on a cheap
 * phone or a saturated machine.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { intArg, parseArgs } from "./lib/args.ts";
import { builtPrecache, VOTER_PRECACHE_BUDGET_KB } from "../pwa/build/voter-precache.ts";
import { ADMIN_MATRIC, ADMIN_PASSWORD, BALLOT_KEY, ROOT, startServer } from "./lib/server.ts";
import { SLOW_MOBILE, startShaper } from "./lib/shaper.ts";
import { tempDir } from "./lib/seed.ts";

const args = parseArgs();
const runs = intArg(args, "runs", 5);
const slowdown = intArg(args, "cpu-slowdown", 1);
const timeoutMs = intArg(args, "timeout", 90) * 1000;
const dist = join(ROOT, "pwa/dist");
if (!existsSync(join(dist, "sw.js"))) throw new Error("No built service worker: run `npm run build` first.");

// The precache manifest as workbox-build wrote it into sw.js.
const manifest = builtPrecache(readFileSync(join(dist, "sw.js"), "utf8")).precached;
let raw = 0;
let gzip = 0;
for (const url of manifest) {
  const bytes = readFileSync(join(dist, url));
  raw += bytes.length;
  gzip += gzipSync(bytes, { level: 9 }).length;
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`first visit: ${runs} runs, link ${SLOW_MOBILE.downKbps / 1000} Mbps down / ${SLOW_MOBILE.upKbps} kbps up / ${SLOW_MOBILE.rttMs} ms RTT, CPU slowdown ${slowdown}x, load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
console.log(`precache: ${manifest.length} files, ${kb(raw)} raw, ${kb(gzip)} gzip`);

const scratch = tempDir("first-visit");
const seeded = execFileSync(process.execPath, ["--import", "tsx", "api/src/scripts/seed-demo.ts"], {
  cwd: ROOT,
  // The server's keys: dates of birth are stored under its ballot key.
  env: { ...process.env, DATABASE_URL: `file:${scratch.dbPath}`, BALLOT_KEY, ADMIN_MATRIC, ADMIN_PASSWORD },
  encoding: "utf8",
});
const voters = [...seeded.matchAll(/(\d{4}\/5570\d+)\s+date of birth (\d{8})/g)].map(([, m, d]) => ({ matric: m, dob: d }));
if (voters.length < 2) throw new Error(`seed-demo printed fewer than two voters:\n${seeded}`);
const [{ matric, dob }, other] = voters;
const server = await startServer({ dbPath: scratch.dbPath });
// A server on polling day has signed voters in before: another voter signs in once, so the
// first run does not pay the process's one-time start of the sign-in path (its first
// sign-in took ~1.4 s, the next ones 50-300 ms).
const warm = await fetch(`${server.url}/api/auth/login`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ matricNumber: other.matric, dateOfBirth: other.dob }),
});
if (!warm.ok) throw new Error(`the warm-up sign-in failed: ${warm.status} ${await warm.text()}`);
const shaper = await startShaper(server.url);
const results: { load: number; form: number; shell: number | null; ready: number | null; bytes: number }[] = [];
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
      // The voter signs in as soon as the form is there.
      const signedIn = page
        .waitForSelector("#root form input", { timeout: timeoutMs })
        .then(async () => {
          form = performance.now() - started;
          await page.getByLabel("Matriculation Number").fill(matric);
          await page.getByLabel("Date of Birth").fill(dob);
          // The form looks the account up first (date of birth or password).
          await page.getByText("This account uses date of birth authentication").waitFor({ timeout: timeoutMs });
          await page.getByRole("button", { name: "Login" }).click();
        })
        .catch((error) => console.log(`run ${run}: the sign-in failed: ${String(error).split("\n")[0]}`));
      await page.goto(`${shaper.url}/login`, { waitUntil: "commit", timeout: timeoutMs });
      let shell: number | null = null;
      let ready: number | null = null;
      const deadline = started + timeoutMs;
      while (ready === null && performance.now() < deadline) {
        const state = await page
          .evaluate(async () => {
            const controller = navigator.serviceWorker?.controller;
            const name = (await caches.keys()).find((n) => n.includes("precache"));
            const cached = name ? (await (await caches.open(name)).keys()).length : 0;
            // The ballot the device keeps for this voter, read without opening (so creating) the database.
            let photos: string[] | null = null;
            if ((await indexedDB.databases()).some((db) => db.name === "evoting")) {
              photos = await new Promise<string[] | null>((resolve) => {
                const open = indexedDB.open("evoting");
                open.onerror = () => resolve(null);
                open.onsuccess = () => {
                  const db = open.result;
                  if (!db.objectStoreNames.contains("cache")) return (db.close(), resolve(null));
                  const all = db.transaction("cache").objectStore("cache").getAll();
                  all.onsuccess = () => {
                    db.close();
                    const ballot = (all.result as { key: string; data: { candidates: { photo?: string }[] }[] }[]).find((row) => row.key === "positions");
                    resolve(ballot ? ballot.data.flatMap((p) => p.candidates.flatMap((c) => (c.photo ? [new URL(c.photo, location.href).href] : []))) : null);
                  };
                  all.onerror = () => (db.close(), resolve(null));
                };
              });
            }
            const photoCache = (await caches.keys()).includes("candidate-photos") ? await caches.open("candidate-photos") : null;
            const held = new Set(photoCache ? (await photoCache.keys()).map((r) => r.url) : []);
            const ballot = photos !== null && photos.length > 0 && photos.every((url) => held.has(url));
            return { controlled: controller?.state === "activated", cached, ballot };
          })
          .catch(() => ({ controlled: false, cached: 0, ballot: false })); // mid-navigation
        const shellReady = state.controlled && state.cached >= manifest.length;
        if (shellReady && shell === null) shell = performance.now() - started;
        if (shellReady && state.ballot) ready = performance.now() - started;
        else await new Promise((r) => setTimeout(r, 100));
      }
      await signedIn;
      const bytes = shaper.downBytes() - before;
      results.push({ load, form, shell, ready, bytes });
      const ms = (t: number | null) => (t === null ? `NOT within ${timeoutMs / 1000} s` : `${Math.round(t)} ms`);
      console.log(`run ${run}: load ${Math.round(load)} ms, sign-in form ${Math.round(form)} ms, shell ready ${ms(shell)}, offline-ready ${ms(ready)}, ${kb(bytes)} over the link`);
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
const shells = results.map((r) => r.shell).filter((r): r is number => r !== null);
console.log(
  `median: load ${Math.round(median(results.map((r) => r.load)))} ms, sign-in form ${Math.round(median(results.map((r) => r.form)))} ms, shell ready ${Math.round(median(shells))} ms, offline-ready ${Math.round(median(ready))} ms (${ready.length}/${results.length} runs offline-ready)`,
);
console.log(
  `Targets:\n  ${ready.length === results.length && median(ready) < 5_000 ? "MET   " : "MISSED"}  offline-ready (shell, ballot and photos) within 5 s: median ${Math.round(median(ready))} ms, ${results.length - ready.length} runs never\n  ${gzip <= VOTER_PRECACHE_BUDGET_KB * 1024 ? "MET   " : "MISSED"}  precache within its ${VOTER_PRECACHE_BUDGET_KB} KB gzip budget: ${kb(gzip)}`,
);
