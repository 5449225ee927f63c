// What `npm start` and the operator commands (`npm run audit`, `backup`, `seed:demo`) run is
// the bundle in api/dist, with plain node. With the devDependencies installed (`npm install`)
// the bundle is rebuilt first (about half a second, so nothing runs stale code); without them
// (`npm ci --omit=dev` in production) what `npm run build` made on the build machine runs
// (docs/operations.md, "Production").
import { spawn, spawnSync } from "node:child_process";
import { clearInterval, setInterval } from "node:timers";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const canBuild = (tool) => {
  try {
    import.meta.resolve(tool);
    return true;
  } catch {
    return false;
  }
};

const missing = (what, file) => {
  console.error(`${what} is missing (${file}) and the build tools are not installed (devDependencies).`);
  console.error("Run `npm run build` where they are (or `npm install` here), then start again: see docs/operations.md.");
  process.exit(1);
};

/** Makes sure api/dist (and, for the server, pwa/dist) exist and are current; returns the entry's path. */
export async function ensureBuilt(entry, { pwa = false } = {}) {
  if (pwa && !existsSync(join(root, "pwa/dist/index.html"))) {
    if (!canBuild("vite")) missing("The built PWA", "pwa/dist");
    console.log("Building the PWA (first start)...");
    // A production build whatever NODE_ENV the caller has (a test runner sets "test", which
    // would ship React's development build).
    const build = spawnSync("npm", ["run", "build", "-w", "pwa"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const file = join(root, `api/dist/${entry}.mjs`);
  if (canBuild("esbuild")) {
    const { buildServer } = await import("./build-server.mjs");
    await buildServer();
  } else if (!existsSync(file)) {
    missing("The server build", `api/dist/${entry}.mjs`);
  }
  return file;
}

/**
 * Runs a built entry in a child process; this process ends as the child does, and passes on
 * Ctrl-C, SIGTERM and SIGHUP, then ends with that signal itself (so `npm start` reports it).
 * npm runs a script under `sh -c`: a SIGTERM to npm can end that shell and leave this process
 * orphaned, told nothing; a change of parent is then taken as the signal to stop.
 */
export function runBuilt(file, args = []) {
  const child = spawn(process.execPath, ["--enable-source-maps", file, ...args], { cwd: root, stdio: "inherit" });
  let received = null;
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  const stop = (signal) => {
    received ??= signal;
    child.kill(signal);
  };
  for (const signal of signals) process.on(signal, stop);
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid !== parent) stop("SIGTERM");
  }, 250);
  child.on("exit", (code, signal) => {
    clearInterval(orphaned);
    const ending = received ?? signal;
    if (ending) {
      for (const s of signals) process.removeAllListeners(s);
      process.kill(process.pid, ending);
      return;
    }
    process.exit(code ?? 0);
  });
}
