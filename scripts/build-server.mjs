// Bundles the API server, its writer and count threads and the operator commands (audit, backup, demo
// seed, recount) into api/dist (esbuild; decision 0013), so production runs plain `node` with only the
// dependencies in api/package.json and shared/package.json installed: those stay outside the
// bundle (native modules among them), and everything of ours, TypeScript and @evoting/shared
// included, goes in.
//
//   node scripts/build-server.mjs     (part of `npm run build`; `npm start` and the operator
//                                      commands run it when they can, scripts/built.mjs)
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
    // api/dist/server.mjs and its threads beside it, where api/src/paths.ts looks for them.
    entryPoints: {
      server: "api/src/server.ts",
      "writer-thread": "api/src/db/writer-thread.ts",
      "count-thread": "api/src/services/results/count-thread.ts",
      "belenios-verifier": "api/src/services/belenios/verifier-thread.ts",
      audit: "api/src/scripts/audit.ts",
      backup: "api/src/scripts/backup.ts",
      "seed-demo": "api/src/scripts/seed-demo.ts",
      recount: "api/src/scripts/recount.ts",
    },
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
  console.log(`Built api/dist (server, writer and count threads, audit, backup, seed-demo, recount) in ${Math.round(ms)} ms`);
}
