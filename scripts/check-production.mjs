// `npm run check:production`: proves the documented production path on a copy of this
// checkout: `npm run build` here (with the devDependencies), then in a temporary directory
// holding the sources and the two builds only, `npm ci --omit=dev` and `npm start`; the server
// must answer /api/health, a sign-in (a write through the writer thread) and the PWA's page,
// and stop cleanly on SIGTERM; the operator commands (backup, audit, recount) run there too. No
// devDependency may be installed there.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = (cmd, args, cwd, env = {}) => {
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit", env: { ...process.env, NODE_ENV: "production", ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status})`);
};
const step = async (name, fn) => {
  const started = performance.now();
  const value = await fn();
  console.log(`check:production: ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return value;
};

await step("npm run build", () => run("npm", ["run", "build"], root));

const dir = mkdtempSync(join(tmpdir(), "evoting-production-"));
let server = null;
try {
  await step("copy of the sources and the builds", () => {
    const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
    for (const f of [...files, "api/dist", "pwa/dist"]) {
      if (!existsSync(join(root, f))) continue; // deleted in the work tree, not yet in git
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      cpSync(join(root, f), join(dir, f), { recursive: true });
    }
  });
  await step("npm ci --omit=dev", () => run("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund"], dir));
  for (const dev of ["tsx", "esbuild", "vite", "drizzle-kit", "typescript"]) {
    if (existsSync(join(dir, "node_modules", dev))) throw new Error(`devDependency ${dev} was installed by npm ci --omit=dev`);
  }

  const port = await new Promise((done) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  const password = "production-check-1";
  await step("npm start until /api/health answers", async () => {
    // Its own process group, stopped as a terminal's Ctrl-C or systemd stops one: npm does not
    // pass a SIGTERM sent to it alone on to the server.
    server = spawn("npm", ["start"], {
      cwd: dir,
      detached: true,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: `file:${join(dir, "data/evoting.db")}`, ADMIN_PASSWORD: password },
    });
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}`);
      const res = await fetch(`${base}/api/health`).catch(() => null);
      if (res?.ok) return;
      if (i > 300) throw new Error("the server did not answer /api/health within 30 s");
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  const login = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ matricNumber: "0000/5570000", password }),
  });
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${await login.text()}`);
  const page = await fetch(`${base}/`);
  if (page.status !== 200 || !(await page.text()).includes("<html")) throw new Error(`GET / answered ${page.status}`);
  // The operator's commands run from the same bundle while the election runs.
  const database = { DATABASE_URL: `file:${join(dir, "data/evoting.db")}` };
  await step("npm run backup while the server runs", () => run("npm", ["run", "backup", "--", "--out", join(dir, "backup.db")], dir, database));
  await step("npm run audit", () => run("npm", ["run", "audit"], dir, database));
  // The recount needs no database: a published example, counted with the production dependencies only.
  await step("npm run recount", () => run("npm", ["run", "recount", "--", "shared/src/counting/fixtures/Govan-2007.blt", "--json"], dir));
  await step("SIGTERM until the server has stopped", async () => {
    const exited = new Promise((r) => server.once("exit", r));
    process.kill(-server.pid, "SIGTERM");
    await exited;
    server = null;
    for (let i = 0; await fetch(`${base}/api/health`).then(() => true, () => false); i++) {
      if (i > 100) throw new Error("the server still answers 10 s after SIGTERM");
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  console.log("check:production: ok (npm ci --omit=dev, then npm start serves the API and the PWA; backup, audit and recount run)");
} finally {
  if (server) process.kill(-server.pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
}
