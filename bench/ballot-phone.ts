/**
 * `npm run bench -- --only=ballot-phone` (or `node --import tsx bench/ballot-phone.ts`): how long
 * a phone takes to build a verifiable ballot for 5 candidates, in Debian's Chromium at 1x and at a
 * 4x CPU slowdown (`Emulation.setCPUThrottlingRate`). The code timed is the PWA's own ballot
 * worker as built (pwa/dist/assets/ballot-worker-*.js; the PWA is built first if that file is
 * missing or older than its sources), given the message the vote page posts
 * (pwa/src/verifiable/encrypt.ts) for a real election: two trustees' keys and a voter's
 * credential made with shared/src/belenios, the election serialized as the server's lock does.
 *
 * Each run starts a fresh worker (as a voter's page does once per visit), waits until its script
 * has loaded (the vote page starts it before the voter chooses), then times one ballot from the
 * post to the answer (a cold build, the one a voter waits for), and also in the worker's own
 * thread. Runs alternate 1x and 4x so each pair shares the machine's minute. The first ballot of
 * each kind is verified (shared/src/belenios's verifyBallot, as the server checks it).
 *
 * Chromium's throttling slows the page's main thread; whether it reaches a dedicated worker is
 * measured every time (the worker thread's 4x median against its 1x median; Chromium 156's worker
 * target itself refuses the command: "Operation is only supported for pages, not workers"). Where
 * it does not, the same
 * built worker code is also run on a page's main thread (a fresh browser context each run, so the
 * build is as cold as in a new worker) and the 4x figure and verdict come from there.
 *
 *   --runs=8     runs at each rate
 *   --blank      an 'Abstain' answer too (a position that allows abstention: one more proof)
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import {
  bigintModPow,
  combineKeys,
  electionFingerprint,
  generateCredential,
  generateTrusteeKey,
  generateUuid,
  parseElection,
  parseTrusteeKey,
  serializeElection,
  setModPow,
  verifyBallot,
  type Choice,
} from "@evoting/shared/belenios";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/support/chromium-flags.ts";
import { intArg, parseArgs } from "./lib/args.ts";
import { ROOT } from "./lib/server.ts";

export const PHONE_TARGET_MS = 1_500;
export const PHONE_SLOWDOWN = 4;
/**
 * A worker thread whose 4x median is under this many times its 1x median is taken as not
 * throttled: here the worker's thread showed 0.96-1.9x (a 2-core machine shared with other work),
 * while the same code on the page's thread at 4x took 4.8-6.7x the worker's 1x time.
 */
const THROTTLED_RATIO = 3;

export interface PhoneRate {
  rate: number;
  ms: number[];
  median: number;
  min: number;
  max: number;
}
export interface PhoneResult {
  /** Where the verdict's figures were timed. */
  where: "worker" | "main thread";
  /** The 4x median over the 1x median of the time in the worker's own thread. */
  workerRatio: number;
  throttlesWorker: boolean;
  /** In the app's worker, from the page's post to its answer: what the voter waits. */
  worker: PhoneRate[];
  /** The same builds, timed in the worker's own thread. */
  workerThread: PhoneRate[];
  mainThread: PhoneRate[] | null;
  /** The position allows abstention ('Abstain', Belenios's blank). */
  blank: boolean;
  /** The 4x median that the verdict reads. */
  slowMedianMs: number;
  met: boolean;
}

const DIST = join(ROOT, "pwa/dist");
const ASSETS = join(DIST, "assets");
const WORKER_FILE = /^ballot-worker-[\w-]+\.js$/;

function builtWorker(): string | null {
  if (!existsSync(ASSETS)) return null;
  const files = readdirSync(ASSETS).filter((f) => WORKER_FILE.test(f));
  if (files.length === 0) return null;
  // A build replaces the folder; should older copies stay beside it, the newest is the build's.
  return files.sort((a, b) => statSync(join(ASSETS, b)).mtimeMs - statSync(join(ASSETS, a)).mtimeMs)[0]!;
}

function newestSource(): number {
  const dirs = [join(ROOT, "shared/src/belenios"), join(ROOT, "pwa/src/verifiable")];
  let newest = 0;
  for (const dir of dirs) for (const f of readdirSync(dir)) if (f.endsWith(".ts")) newest = Math.max(newest, statSync(join(dir, f)).mtimeMs);
  return newest;
}

/** The built worker's file name, building the PWA first if it is missing or older than its sources. */
export function ensureBuiltWorker(): string {
  const found = builtWorker();
  if (found && statSync(join(ASSETS, found)).mtimeMs >= newestSource()) return found;
  console.log(`phone    ${found ? "the built ballot worker is older than its sources" : "no built ballot worker"}: npm run build -w pwa`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST")));
  // A build under NODE_ENV=test (vitest sets it) would ship React's development build.
  execFileSync("npm", ["run", "build", "-w", "pwa"], { cwd: ROOT, stdio: "pipe", env: { ...env, NODE_ENV: "production" } });
  const built = builtWorker();
  if (!built) throw new Error("npm run build -w pwa wrote no assets/ballot-worker-*.js");
  return built;
}

/** A locked position's election as the server serializes it, and one voter's private credential. */
export function phoneElection(blank: boolean): { election: string; credential: string; choice: Choice } {
  setModPow(bigintModPow);
  const keys = [generateTrusteeKey(), generateTrusteeKey()].map((k) => parseTrusteeKey(k.publicKey));
  const election = serializeElection({
    uuid: generateUuid(),
    name: "President",
    description: "CSC E-Voting: President",
    publicKey: combineKeys(keys),
    question: { answers: ["Ada Obi", "Bola Ade", "Chidi Eze", "Dayo Ojo", "Efe Uche"], blank, min: 1, max: 1, question: "President" },
  });
  return { election, credential: generateCredential(), choice: { selected: [2] } };
}

/**
 * Runs in the worker before the app's own module (imports evaluate in order): its listener is
 * called before the app's, and every answer carries the time the worker's own thread took.
 */
const TIMING_MODULE = `let started = 0;
self.addEventListener("message", () => { started = performance.now(); });
const post = self.postMessage.bind(self);
self.postMessage = (message) => post({ ...message, workerMs: performance.now() - started });
`;

/** The page, the built assets and the timed worker (the timing module, then the app's worker), on loopback. */
async function serveDist(workerFile: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end("<!doctype html><html><head><title>ballot-phone</title></head><body></body></html>");
    }
    if (path === "/timing.js" || path === "/timed-ballot-worker.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      return res.end(path === "/timing.js" ? TIMING_MODULE : `import "/timing.js";\nimport "/assets/${workerFile}";\n`);
    }
    const name = path.startsWith("/assets/") ? path.slice("/assets/".length) : "";
    if (/^[\w.-]+\.js$/.test(name) && existsSync(join(ASSETS, name))) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      return res.end(readFileSync(join(ASSETS, name)));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return { url: `http://127.0.0.1:${address.port}`, server };
}

interface Request {
  election: string;
  credential: string;
  choice: Choice;
}

/**
 * One ballot in a fresh worker started as the vote page starts it: ms from the post to the
 * answer on the page (what the voter waits), and in the worker's own thread.
 */
async function timeInWorker(page: Page, workerUrl: string, request: Request): Promise<{ ms: number; workerMs: number; ballot: string }> {
  return page.evaluate(
    async ({ workerUrl, request }) => {
      const worker = new Worker(workerUrl, { type: "module", name: "ballot" });
      const ask = (message: unknown) =>
        new Promise<{ id: number; ballot?: string; error?: string; workerMs: number }>((resolve, reject) => {
          worker.onmessage = (event) => resolve(event.data);
          worker.onerror = (event) => reject(new Error(event.message || "the worker failed to load"));
          worker.postMessage(message);
        });
      try {
        // Its script loaded and listening (an election it cannot read answers at once with an error).
        const ready = await ask({ id: 0, election: "{}", credential: "", choice: { blank: true } });
        if (!ready.error) throw new Error("the worker accepted an empty election");
        const started = performance.now();
        const answer = await ask({ id: 1, ...request });
        const ms = performance.now() - started;
        if (!answer.ballot) throw new Error(`the worker answered: ${answer.error}`);
        return { ms, workerMs: answer.workerMs, ballot: answer.ballot };
      } finally {
        worker.terminate();
      }
    },
    { workerUrl, request },
  );
}

/**
 * The same built worker code, run on the page's main thread: its listener is given a stand-in
 * for the worker's scope, and `window` is hidden from it as it is in a worker. It runs as a
 * script of its own whose first line is the build's compile hint, as in the worker's file.
 */
async function timeOnMainThread(page: Page, source: string, request: Request): Promise<{ ms: number; ballot: string }> {
  const [hint, ...rest] = source.split("\n");
  if (!hint!.startsWith("//# ")) throw new Error("the built worker does not start with its compile hint");
  await page.evaluate(() => {
    const bench = { listener: null as ((event: { data: unknown }) => void) | null, answer: null as unknown };
    (globalThis as unknown as { bench: typeof bench }).bench = bench;
    (globalThis as unknown as { benchScope: unknown }).benchScope = {
      addEventListener: (_type: string, l: (event: { data: unknown }) => void) => (bench.listener = l),
      postMessage: (message: unknown) => (bench.answer = message),
    };
  });
  await page.addScriptTag({ content: `${hint}\n(function (window, self) {\n${rest.join("\n")}\n})(undefined, globalThis.benchScope);` });
  return page.evaluate((request) => {
    const bench = (globalThis as unknown as { bench: { listener: ((event: { data: unknown }) => void) | null; answer: { ballot?: string; error?: string } | null } }).bench;
    if (!bench.listener) throw new Error("the worker code registered no listener");
    const started = performance.now();
    bench.listener({ data: { id: 1, ...request } });
    const ms = performance.now() - started;
    if (!bench.answer?.ballot) throw new Error(`the worker code answered: ${bench.answer?.error}`);
    return { ms, ballot: bench.answer.ballot };
  }, request);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const summary = (rate: number, ms: number[]): PhoneRate => ({ rate, ms, median: median(ms), min: Math.min(...ms), max: Math.max(...ms) });
const line = (r: PhoneRate) => `${r.rate}x median ${Math.round(r.median)} ms (${Math.round(r.min)}–${Math.round(r.max)} ms)`;

/**
 * A page on the bench's origin and its DevTools session, which must stay attached: detaching it
 * clears its CPU throttling. tsx keeps function names through a `__name` helper the page lacks.
 */
async function openPage(browser: Browser, url: string): Promise<{ context: BrowserContext; page: Page; throttle: (rate: number) => Promise<void> }> {
  const context = await browser.newContext();
  await context.addInitScript({ content: "globalThis.__name = (fn) => fn;" });
  const page = await context.newPage();
  await page.goto(url);
  const cdp = await context.newCDPSession(page);
  return { context, page, throttle: async (rate) => void (await cdp.send("Emulation.setCPUThrottlingRate", { rate })) };
}

export async function benchBallotPhone({ runs = 8, blank = false } = {}): Promise<PhoneResult> {
  const load = () => loadavg().map((n) => n.toFixed(2)).join(" ");
  const workerFile = ensureBuiltWorker();
  const source = readFileSync(join(ASSETS, workerFile), "utf8");
  const request = phoneElection(blank);
  const election = parseElection(request.election);
  const fingerprint = electionFingerprint(request.election);
  const rates = [1, PHONE_SLOWDOWN];
  console.log(`phone    a verifiable ballot for 5 candidates${blank ? " and Abstain" : ""}, built by assets/${workerFile} in ${CHROMIUM_PATH}, ${runs} runs at ${rates.join("x and ")}x, load average ${load()}`);

  const { url, server } = await serveDist(workerFile);
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const checked = new Set<string>();
  const check = (ballot: string, where: string) => {
    if (checked.has(where)) return;
    const result = verifyBallot(ballot, election, fingerprint);
    if (!result.ok) throw new Error(`the ballot built ${where} does not verify: ${result.message}`);
    checked.add(where);
  };
  try {
    const { context, page, throttle } = await openPage(browser, url);
    const waited = new Map(rates.map((r) => [r, [] as number[]]));
    const inThread = new Map(rates.map((r) => [r, [] as number[]]));
    for (let run = 0; run < runs; run++) {
      for (const rate of rates) {
        await throttle(rate);
        const { ms, workerMs, ballot } = await timeInWorker(page, `${url}/timed-ballot-worker.js`, request);
        check(ballot, `in the worker at ${rate}x`);
        waited.get(rate)!.push(ms);
        inThread.get(rate)!.push(workerMs);
      }
    }
    await context.close();
    const worker = rates.map((r) => summary(r, waited.get(r)!));
    const workerThread = rates.map((r) => summary(r, inThread.get(r)!));
    // The worker's own thread's time: the page's answer also waits for the page's main thread,
    // which the throttling does slow.
    const workerRatio = workerThread[1]!.median / workerThread[0]!.median;
    const throttlesWorker = workerRatio >= THROTTLED_RATIO;
    console.log(`phone    in the app's ballot worker, post to answer on the page: ${worker.map(line).join("; ")}`);
    console.log(
      `phone    the same, in the worker's own thread: ${workerThread.map(line).join("; ")}: 4x/1x = ${workerRatio.toFixed(2)}, ${throttlesWorker ? "Chromium's CPU throttling reaches the worker" : "Chromium's CPU throttling does NOT reach a dedicated worker"}`,
    );

    let mainThread: PhoneRate[] | null = null;
    if (!throttlesWorker) {
      const mainMs = new Map(rates.map((r) => [r, [] as number[]]));
      for (let run = 0; run < runs; run++) {
        for (const rate of rates) {
          // A fresh context each run, so the code is compiled and warmed anew, as in a new worker.
          const { context: ctx, page: p, throttle: slow } = await openPage(browser, url);
          await slow(rate);
          const { ms, ballot } = await timeOnMainThread(p, source, request);
          check(ballot, `on the main thread at ${rate}x`);
          mainMs.get(rate)!.push(ms);
          await ctx.close();
        }
      }
      mainThread = rates.map((r) => summary(r, mainMs.get(r)!));
      console.log(`phone    the same worker code on the page's main thread (where the throttling applies): ${mainThread.map(line).join("; ")}`);
    }
    const slow = (throttlesWorker ? worker : mainThread!)[1]!;
    const met = slow.median < PHONE_TARGET_MS;
    console.log(`phone    load average at the end ${load()}`);
    return { where: throttlesWorker ? "worker" : "main thread", blank, workerRatio, throttlesWorker, worker, workerThread, mainThread, slowMedianMs: slow.median, met };
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The verdict line `npm run bench` prints. */
export function phoneVerdict(r: PhoneResult): string {
  const slow = (r.where === "worker" ? r.worker : r.mainThread!)[1]!;
  return `a phone builds a verifiable ballot for 5 candidates${r.blank ? " and Abstain" : ""} < 1.5 s at a ${PHONE_SLOWDOWN}x CPU slowdown (issue 48), timed ${r.where === "worker" ? "in the app's ballot worker" : "on the page's main thread, the worker's code (Chromium's throttling does not reach a dedicated worker)"}: median ${Math.round(slow.median)} ms (${Math.round(slow.min)}–${Math.round(slow.max)} ms, ${slow.ms.length} runs)`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = parseArgs();
  const result = await benchBallotPhone({ runs: intArg(args, "runs", 8), blank: args.has("blank") });
  console.log(`${result.met ? "MET " : "MISSED"}  ${phoneVerdict(result)}`);
}
