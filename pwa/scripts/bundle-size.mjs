#!/usr/bin/env node
/**
 * Prints the gzip size of the JavaScript /login loads initially: the entry chunk, every chunk
 * it imports statically, the app chunk it imports after the first paint (its static imports
 * too), and the login route's split component chunk with its static imports
 * (the router fetches that before the page can render). Reads dist/.vite/manifest.json, so
 * run `npm run build -w pwa` first. Exits non-zero above the 150 KB budget.
 *
 *   node pwa/scripts/bundle-size.mjs [--json]
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const BUDGET_KB = 150;
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
let manifest;
try {
  manifest = JSON.parse(readFileSync(`${dist}.vite/manifest.json`, "utf8"));
} catch {
  console.error("No build manifest: run `npm run build -w pwa` first.");
  process.exit(2);
}

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) visit(dep);
};

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
visit(entry);
// The entry (src/boot.ts) imports the app after the first paint: it loads on every page all the same.
(manifest[entry].dynamicImports ?? []).filter((k) => /^_app-/.test(k)).forEach(visit);
const loginChunks = Object.keys(manifest).filter((k) => /routes\/login\.tsx/.test(k));
loginChunks.forEach(visit);

const rows = [...files]
  .filter((f) => f.endsWith(".js"))
  .map((file) => {
    const bytes = readFileSync(`${dist}${file}`);
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

const totalGzip = rows.reduce((n, r) => n + r.gzip, 0);
const kb = (n) => (n / 1024).toFixed(1);

if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ route: "/login", gzipBytes: totalGzip, gzipKB: Number(kb(totalGzip)), budgetKB: BUDGET_KB, files: rows }));
} else {
  for (const r of rows) console.log(`${kb(r.gzip).padStart(7)} KB gzip  ${kb(r.raw).padStart(7)} KB raw  ${r.file}`);
  console.log(`/login initial JS: ${kb(totalGzip)} KB gzip (budget ${BUDGET_KB} KB)`);
}
process.exit(totalGzip / 1024 <= BUDGET_KB ? 0 : 1);
