/**
 * `npm start` stops with its server: SIGTERM (or Ctrl-C's SIGINT) to npm reaches the server, and
 * npm ends by that signal, leaving nothing listening. Runs the real `npm start` on a temp database.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`)).ok;
  } catch {
    return false;
  }
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe("npm start", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal} to npm stops the server and npm ends by the signal`, { timeout: 240_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), "start-signals-"));
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "NODE_ENV"));
      const npm = spawn("npm", ["start"], {
        cwd: root,
        env: { ...env, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: `file:${join(dir, "db.sqlite")}`, ADMIN_PASSWORD: "start-signals-pass-1" },
        stdio: "ignore",
      });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => npm.once("exit", (code, s) => resolve({ code, signal: s })));
      try {
        // The first `npm start` of a fresh clone builds the PWA and the server first: minutes on a
        // busy 2-core machine running the rest of the suite beside it.
        expect(await until(() => healthy(url), 180_000)).toBe(true);
        npm.kill(signal);
        const { code, signal: by } = await exited;
        // npm reports a script ended by a signal as that signal, or as 128 + its number.
        expect(by === signal || code === (signal === "SIGTERM" ? 143 : 130) || code === 1, `npm exit ${code} ${by}`).toBe(true);
        expect(await until(async () => !(await healthy(url)), 10_000)).toBe(true);
      } finally {
        if (npm.exitCode === null && npm.signalCode === null) npm.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
