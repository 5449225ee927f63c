// `npm run lighthouse`: Lighthouse (npm package, Debian's Chromium) against `npm start` on a
// temp database, mobile preset by default (`-- --desktop` for desktop). Prints the category
// scores for the sign-in page and, signed in as a seeded voter, the vote page. `-- --runs=N`
// measures each page N times, each time in a fresh Chromium, and prints each page's median
// performance score: on this 2-core machine one run's score varies by about ±5.
// Lighthouse 12 has no PWA category: installability is asserted in the browser suite.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const desktop = process.argv.includes("--desktop");
const argValue = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const runs = Math.max(1, Math.floor(Number(argValue("runs") ?? 1)) || 1);
// `--pair=DIR`: another checkout of the project, built, measured in the same runs; the order of
// the two alternates run by run, and the end prints each page's paired difference (this tree
// minus DIR's) with its standard error. `--only=/vote` measures one page.
const pairRoot = argValue("pair");
const only = argValue("only");
// The longest wait for a quiet machine before each measurement, in seconds.
const quietWaitMs = Number(argValue("quiet-wait") ?? 20) * 1000;
/** Each tree's, then each page's performance score, run by run. */
const performanceScores = new Map();
const dir = mkdtempSync(join(tmpdir(), "evoting-lh-"));

/** Seeds a database and starts the server of the checkout at `treeRoot`; resolves to its address and a voter's sign-in. */
async function startTree(treeRoot, name) {
  const port = 21_000 + Math.floor(Math.random() * 10_000);
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), DATABASE_URL: `file:${join(dir, `${name}.db`)}`, ADMIN_PASSWORD: "lighthouse-admin" };
  const run = (args) =>
    new Promise((resolve, reject) => {
      const p = spawn(process.execPath, args, { cwd: treeRoot, env, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      p.stdout.on("data", (d) => (out += d));
      p.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(" ")} exited ${code}`))));
    });
  const seeded = await run(["--import", "tsx", "api/src/scripts/seed-demo.ts"]);
  const sample = seeded.match(/(\d{4}\/5570\d+)\s+date of birth (\d{8})/);
  const server = spawn(process.execPath, ["--import", "tsx", "api/src/server.ts"], { cwd: treeRoot, env, stdio: "ignore" });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name, base, sample, server };
}

const trees = [await startTree(root, "this")];
if (pairRoot) trees.push(await startTree(pairRoot, "pair"));
try {
  for (let run = 0; run < runs; run++) {
    if (runs > 1) console.log(`Run ${run + 1} of ${runs}`);
    // Alternate which tree goes first, so neither always meets the machine in the same state.
    for (const { name, base, sample } of run % 2 === 0 ? trees : [...trees].reverse()) {
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    try {
      const config = desktop
        ? { extends: "lighthouse:default", settings: { formFactor: "desktop", screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false }, throttlingMethod: "simulate" } }
        : { extends: "lighthouse:default" };
      const flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility", "best-practices", "seo"] };
      const pages = only === "/vote" ? [] : [["/login", null]];
      if (sample) {
        const login = await fetch(`${base}/api/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ matricNumber: sample[1], dateOfBirth: Number(sample[2]) }),
        }).then((r) => r.json());
        pages.push(["/vote", login]);
      }
      console.log(`Lighthouse ${desktop ? "desktop" : "mobile"} preset, ${base}${pairRoot ? ` (${name === "this" ? "this tree" : pairRoot})` : ""}`);
      for (const [path, session] of pages) {
        const script = session
          ? `localStorage.setItem('authToken', ${JSON.stringify(session.token)}); localStorage.setItem('user', ${JSON.stringify(JSON.stringify(session.user))});`
          : null;
        const audit = async () => lighthouse(`${base}${path}`, { ...flags, ...(script ? { extraHeaders: {} } : {}) }, config, script ? await pageWithSession(chrome.port, base, script) : undefined);
        // The mobile preset scales the main-thread time it observes, so a page measured while
        // something else runs scores the machine, not the page: Chromium's start-up (its
        // browser-UI pages take ~2 s of CPU), the server's, or the sign-in navigation above.
        const machine = await quietMachine(quietWaitMs);
        console.log(`${path.padEnd(8)} measured with the machine ${machine}`);
        let result = await audit();
        // Now and then on a busy machine the trace misses the page's navigation (NO_NAVSTART,
        // seen on every tree): that run measured nothing, so it runs once more and says so.
        if (result.lhr.runtimeError) {
          console.log(`${path.padEnd(8)} runtime error ${result.lhr.runtimeError.code}: running it again`);
          result = await audit();
        }
        const scores = Object.fromEntries(Object.values(result.lhr.categories).map((c) => [c.id, Math.round((c.score ?? 0) * 100)]));
        console.log(`${path.padEnd(8)} ${JSON.stringify(scores)}`);
        const key = `${name} ${path}`;
        if (!result.lhr.runtimeError) performanceScores.set(key, [...(performanceScores.get(key) ?? []), { run, score: scores.performance }]);
        // A run that could not load the page scores 0: say why (seen now and then on a busy machine).
        if (result.lhr.runtimeError) console.log(`    runtime error: ${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
        const failing = Object.values(result.lhr.audits).filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "manual");
        // LH_JSON_DIR=dir keeps each full report (open it in the Lighthouse viewer) and its trace.
        if (process.env.LH_JSON_DIR) {
          mkdirSync(process.env.LH_JSON_DIR, { recursive: true });
          const file = (pairRoot ? `${name}-` : "") + (path.replace(/\W+/g, "_") || "root") + (runs > 1 ? `-${run + 1}` : "");
          writeFileSync(join(process.env.LH_JSON_DIR, `${file}.json`), JSON.stringify(result.lhr));
          // The page's trace as Lighthouse recorded it (open it in DevTools' Performance panel).
          writeFileSync(join(process.env.LH_JSON_DIR, `${file}.trace.json`), JSON.stringify(result.artifacts.Trace));
        }
        const metric = (id) => result.lhr.audits[id]?.displayValue ?? "-";
        console.log(`    FCP ${metric("first-contentful-paint")}, LCP ${metric("largest-contentful-paint")}, TBT ${metric("total-blocking-time")}, CLS ${metric("cumulative-layout-shift")}, SI ${metric("speed-index")}`);
        for (const a of failing.slice(0, 8)) {
          console.log(`    below 90: ${a.id} (${a.displayValue ?? a.score})`);
          // Say what the audit found, so a failure can be acted on without opening the report.
          for (const item of (a.details?.items ?? []).slice(0, 3)) console.log(`      ${JSON.stringify(item).slice(0, 240)}`);
        }
      }
    } finally {
      await chrome.kill();
    }
    }
  }
  if (runs > 1) {
    for (const [key, entries] of performanceScores) {
      const scores = entries.map((e) => e.score);
      const sorted = [...scores].sort((a, b) => a - b);
      const mid = sorted.length / 2;
      const median = sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
      const label = pairRoot ? key : key.replace(/^this /, "");
      console.log(`${label.padEnd(8)} performance median ${median} over ${scores.length} runs (${sorted[0]}–${sorted.at(-1)}): ${scores.join(" / ")}`);
    }
  }
  if (pairRoot) {
    // Paired by run: this tree's score minus the other's in the same run.
    for (const [key, mine] of performanceScores) {
      if (!key.startsWith("this ")) continue;
      const path = key.slice("this ".length);
      const theirs = new Map((performanceScores.get(`pair ${path}`) ?? []).map((e) => [e.run, e.score]));
      const diffs = mine.filter((e) => theirs.has(e.run)).map((e) => e.score - theirs.get(e.run));
      if (diffs.length < 2) continue;
      const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
      const sd = Math.sqrt(diffs.reduce((a, b) => a + (b - mean) ** 2, 0) / (diffs.length - 1));
      const wins = diffs.filter((d) => d > 0).length;
      const losses = diffs.filter((d) => d < 0).length;
      console.log(`${path.padEnd(8)} paired difference (this tree - ${pairRoot}) over ${diffs.length} pairs: mean ${mean.toFixed(2)}, standard error ${(sd / Math.sqrt(diffs.length)).toFixed(2)}; this tree higher in ${wins}, lower in ${losses}: ${diffs.join(" / ")}`);
    }
  }
} finally {
  for (const { server } of trees) server.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}

/** Lighthouse's `page` argument: a Puppeteer-free way is not offered, so sign in via a first navigation. */
async function pageWithSession(chromePort, origin, script) {
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chromePort}` });
  const page = await browser.newPage();
  await page.goto(`${origin}/login`);
  await page.evaluate(script);
  return page;
}

/**
 * Waits until under 20% of the machine's CPU time is busy over a second (20 s at most) and
 * says how busy it was when the measurement started. Where there is no /proc/stat it waits 3 s.
 */
async function quietMachine(maxMs) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  if (!existsSync("/proc/stat")) {
    await sleep(3_000);
    return "not measured (no /proc/stat); waited 3 s";
  }
  const sample = () => {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: fields[3] + (fields[4] ?? 0), total: fields.reduce((a, b) => a + b, 0) };
  };
  const started = Date.now();
  let busy = 1;
  while (Date.now() - started < maxMs) {
    const a = sample();
    await sleep(1_000);
    const b = sample();
    busy = 1 - (b.idle - a.idle) / Math.max(1, b.total - a.total);
    if (busy < 0.2) break;
  }
  return `${Math.round(busy * 100)}% busy, after waiting ${((Date.now() - started) / 1000).toFixed(1)} s`;
}
