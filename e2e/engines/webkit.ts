/**
 * WebKit through WebKitWebDriver (Debian's webkit2gtk-driver), the W3C WebDriver classic
 * protocol over HTTP, driving WebKit's MiniBrowser under an Xvfb display this module starts.
 * The protocol calls are few and plain (new session, navigate, execute script, element
 * click/clear/value), so they are made here with fetch, each with its own time limit.
 * A new-session call that hangs (seen on this machine) gets the driver restarted once.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { findSource, limit, type EngineDriver } from "./driver";
import type { Query } from "./find";

/** Where Debian's libwebkit2gtk-4.1-0 puts MiniBrowser (`dpkg -S MiniBrowser`). */
export function miniBrowserPath(): string {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH;
  const found = spawnSync("dpkg", ["-S", "MiniBrowser"], { encoding: "utf8" });
  const path = found.stdout
    ?.split("\n")
    .map((line) => line.split(": ")[1]?.trim())
    .find((p) => p && p.endsWith("/MiniBrowser") && p.includes("webkit2gtk-4.1") && existsSync(p));
  return path ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
}

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function stop(child: ChildProcess | null) {
  if (child && child.exitCode === null) child.kill("SIGKILL");
}

/** An X display of our own: Xvfb picks a free number and writes it to the pipe. */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn("Xvfb", ["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], { stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  xvfb.stderr?.on("data", (d) => (errors += d));
  const display = await limit(
    "Xvfb start",
    15_000,
    new Promise<string>((resolve, reject) => {
      let out = "";
      xvfb.stdout?.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(`:${out.trim()}`);
      });
      xvfb.once("exit", (code) => reject(new Error(`Xvfb exited (${code}): ${errors}`)));
    }),
  ).catch((error) => {
    stop(xvfb);
    throw error;
  });
  return { display, process: xvfb };
}

interface Session {
  base: string;
  driver: ChildProcess;
}

/** The last lines WebKitWebDriver and the browser it started wrote, by driver address. */
const driverLogs = new Map<string, string>();

async function call<T = unknown>(base: string, method: string, path: string, body?: unknown, ms = 20_000): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(ms),
  });
  const json = (await response.json().catch(() => ({}))) as { value?: { error?: string; message?: string } & T };
  if (!response.ok) {
    const error = json.value?.error ?? String(response.status);
    // A session that is gone means the browser went away: say what it last wrote.
    const log = error === "invalid session id" ? `\n${driverLogs.get(base) ?? "(the driver wrote nothing)"}` : "";
    throw new Error(`WebKitWebDriver ${method} ${path}: ${error} ${json.value?.message ?? ""}${log}`);
  }
  return json.value as T;
}

async function startDriver(display: string): Promise<{ base: string; driver: ChildProcess }> {
  const port = await freePort();
  const driver = spawn("WebKitWebDriver", [`--port=${port}`, "--host=127.0.0.1"], {
    env: { ...process.env, DISPLAY: display },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const base = `http://127.0.0.1:${port}`;
  driver.stderr?.on("data", (d: Buffer) => driverLogs.set(base, ((driverLogs.get(base) ?? "") + d.toString()).slice(-4_000)));
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await call(base, "GET", "/status", undefined, 2_000);
      return { base, driver };
    } catch (error) {
      if (Date.now() > deadline || driver.exitCode !== null) {
        stop(driver);
        throw new Error(`WebKitWebDriver did not start: ${String(error)}`, { cause: error });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function newSession(display: string, userAgent?: string): Promise<Session & { id: string }> {
  const args = ["--automation", ...(userAgent ? [`--user-agent=${userAgent}`] : [])];
  const capabilities = {
    capabilities: {
      alwaysMatch: {
        "webkitgtk:browserOptions": { binary: miniBrowserPath(), args },
        timeouts: { script: 20_000, pageLoad: 40_000, implicit: 0 },
      },
    },
  };
  for (let attempt = 1; ; attempt++) {
    const { base, driver } = await startDriver(display);
    try {
      const session = await call<{ sessionId: string }>(base, "POST", "/session", capabilities, 30_000);
      return { base, driver, id: session.sessionId };
    } catch (error) {
      stop(driver);
      if (attempt >= 2) throw error;
    }
  }
}

export async function openWebKit(viewport: { width: number; height: number }, userAgent?: string): Promise<EngineDriver> {
  const xvfb = await startXvfb();
  let session: Session & { id: string };
  try {
    session = await newSession(xvfb.display, userAgent);
  } catch (error) {
    stop(xvfb.process);
    throw error;
  }
  const s = `/session/${session.id}`;
  const wd = <T = unknown>(method: string, path: string, body?: unknown, ms?: number) => call<T>(session.base, method, `${s}${path}`, body, ms);

  // MiniBrowser's window has a toolbar: size the window so the page itself gets the viewport.
  await wd("POST", "/window/rect", { width: viewport.width, height: viewport.height });
  const inner = await wd<{ w: number; h: number }>("POST", "/execute/sync", { script: "return { w: innerWidth, h: innerHeight };", args: [] });
  await wd("POST", "/window/rect", { width: viewport.width * 2 - inner.w, height: viewport.height * 2 - inner.h });

  const evaluate = async (expression: string) => {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => ${expression}).then((value) => done({ ok: value === undefined ? null : value }), (e) => done({ error: String(e && e.stack || e) }));`;
    const result = await wd<{ ok?: unknown; error?: string }>("POST", "/execute/async", { script, args: [] }, 25_000);
    if (result.error) throw new Error(`in the page: ${result.error}`);
    return result.ok;
  };
  const element = async (query: Query): Promise<string | null> => {
    const found = await wd<Record<string, string> | null>("POST", "/execute/sync", { script: `return ${findSource(query)};`, args: [] });
    return found?.[ELEMENT] ?? null;
  };

  return {
    async goto(url) {
      await wd("POST", "/url", { url }, 45_000);
    },
    async reload() {
      await wd("POST", "/refresh", {}, 45_000);
    },
    url: () => wd<string>("GET", "/url"),
    evaluate,
    async click(query) {
      const id = await element(query);
      if (!id) return false;
      await wd("POST", `/element/${id}/click`, {});
      return true;
    },
    async type(query, text) {
      const id = await element(query);
      if (!id) return false;
      await wd("POST", `/element/${id}/clear`, {});
      await wd("POST", `/element/${id}/value`, { text });
      return true;
    },
    async close() {
      await wd("DELETE", "", undefined, 10_000).catch(() => undefined);
      stop(session.driver);
      stop(xvfb.process);
    },
  };
}
