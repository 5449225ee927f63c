/**
 * Builds the PWA, then starts the real server (API + PWA on one origin) on a free port with a
 * fresh temporary database, and stops it afterwards. Tests read the address with
 * `inject("baseURL")`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { ADMIN } from "./accounts";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

const repo = fileURLToPath(new URL("../..", import.meta.url));

/**
 * A port free now. The server is given one rather than port 0, as the links in its messages
 * (APP_URL by default) name the port it was given.
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The address the server names in its "listening on" line, once it listens; fails as soon as it
 * exits or after a minute.
 */
function listeningAddress(child: ChildProcess, log: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Server did not start listening within 60 s:\n${log()}`)), 60_000);
    const heard = () => {
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log());
      if (!listening) return;
      clearTimeout(timer);
      resolve(listening[1]);
    };
    child.stdout?.on("data", heard);
    child.stderr?.on("data", heard);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Server exited early (${code}):\n${log()}`));
    });
  });
}

export interface RunningServer {
  baseURL: string;
  stop: () => Promise<void>;
}

/**
 * The real server (API + built PWA on one origin) on a free port with a fresh temporary
 * database. The suite shares one; a file that must count ballots exactly starts its own.
 */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const tmpRoot = join(repo, "e2e", ".tmp");
  mkdirSync(tmpRoot, { recursive: true });
  const dir = mkdtempSync(join(tmpRoot, "run-"));

  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "api/src/server.ts"], {
    cwd: repo,
    env: {
      ...process.env,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${join(dir, "e2e.db")}`,
      ADMIN_MATRIC: ADMIN.matric,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_NAME: ADMIN.name,
      BALLOT_KEY: randomBytes(32).toString("hex"),
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));

  let baseURL: string;
  try {
    baseURL = await listeningAddress(child, () => output);
    const health = await fetch(`${baseURL}/api/health`);
    if (!health.ok) throw new Error(`Server answered ${health.status} to /api/health:\n${output}`);
  } catch (error) {
    child.kill("SIGTERM");
    throw error;
  }

  const stop = async () => {
    child.kill("SIGTERM");
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve();
      }, 5_000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    rmSync(dir, { recursive: true, force: true });
  };
  return { baseURL, stop };
}

function withoutVitest(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith("VITEST")));
}

export default async function setup(project: TestProject) {
  if (process.env.E2E_SKIP_BUILD !== "1") {
    // Vitest sets NODE_ENV=test; a Vite build inheriting it would ship React's development build.
    const build = spawnSync("npm", ["run", "build", "-w", "pwa"], {
      cwd: repo,
      stdio: "pipe",
      encoding: "utf8",
      // Nor may it see VITEST: vite.config.ts leaves the service worker out of test runs.
      env: { ...withoutVitest(process.env), NODE_ENV: "production" },
    });
    if (build.status !== 0) throw new Error(`PWA build failed:\n${build.stdout}\n${build.stderr}`);
  }

  const server = await startServer();
  project.provide("baseURL", server.baseURL);
  return server.stop;
}
