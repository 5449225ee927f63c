// Bundles the API server and its writer thread into api/dist (esbuild; decision 0012), so a
// production start runs plain `node` with only the dependencies in api/package.json and
// shared/package.json installed: those stay outside the bundle (native modules among them),
// and everything of ours, TypeScript and @evoting/shared included, goes in.
//
//   node scripts/build-server.mjs     (part of `npm run build`; `npm start` runs it when it can)
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dependencies = (workspace) => Object.keys(JSON.parse(readFileSync(join(root, workspace, "package.json"), "utf8")).dependencies ?? {});

export async function buildServer() {
  const started = performance.now();
  await build({
    absWorkingDir: root,
    // api/dist/server.mjs and its thread beside it, where api/src/paths.ts looks for them.
    entryPoints: { server: "api/src/server.ts", "writer-thread": "api/src/db/writer-thread.ts" },
    outdir: "api/dist",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // An external package's subpaths (drizzle-orm/libsql) are external too.
    external: [...dependencies("api"), ...dependencies("shared")],
    sourcemap: "linked",
    legalComments: "none",
    logLevel: "warning",
  });
  return performance.now() - started;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ms = await buildServer();
  console.log(`Built api/dist/server.mjs and api/dist/writer-thread.mjs in ${Math.round(ms)} ms`);
}
