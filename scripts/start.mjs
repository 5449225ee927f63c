// `npm start`: builds the PWA when it is missing, then runs the server (migrations apply at start).
// The server runs in this process's child with tsx, so stopping npm stops the server.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
if (!existsSync(join(root, "pwa/dist/index.html"))) {
  console.log("Building the PWA (first start)...");
  // A production build whatever NODE_ENV the caller has (a test runner sets "test", which
  // would ship React's development build).
  const build = spawnSync("npm", ["run", "build", "-w", "pwa"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawn(process.execPath, ["--import", "tsx", join(root, "api/src/server.ts")], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
