// `npm start`: runs the built server (api/dist) with plain node; migrations apply at start.
// With the devDependencies installed (`npm install`) it first builds what the server serves:
// the server bundle every time (about half a second, so it never runs stale code) and the PWA
// when it is missing. Without them (`npm ci --omit=dev` in production) it runs what
// `npm run build` made on the build machine (docs/operations.md, "Production").
// The server runs in this process's child, so stopping npm stops the server.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const server = join(root, "api/dist/server.mjs");
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

if (!existsSync(join(root, "pwa/dist/index.html"))) {
  if (!canBuild("vite")) missing("The built PWA", "pwa/dist");
  console.log("Building the PWA (first start)...");
  // A production build whatever NODE_ENV the caller has (a test runner sets "test", which
  // would ship React's development build).
  const build = spawnSync("npm", ["run", "build", "-w", "pwa"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
if (canBuild("esbuild")) {
  const { buildServer } = await import("./build-server.mjs");
  await buildServer();
} else if (!existsSync(server)) {
  missing("The server build", "api/dist/server.mjs");
}

const child = spawn(process.execPath, ["--enable-source-maps", server], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
