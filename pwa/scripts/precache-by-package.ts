/**
 * What the voter's precache is made of, by package: every minified byte of its scripts is
 * given to the package (or the app's folder) its source map names, and each package's bytes
 * are gzipped alone, as the server compresses (level 9). For deciding what to cut when the
 * build says the precache is over its budget (build/voter-precache.ts).
 *
 *   npm run precache-by-package -w pwa
 *
 * which builds with source maps, reports, and builds again without (the maps are not meant
 * to be served). The sum is a little above the precache's own figure (each package is
 * compressed alone, without its neighbours' repeats): the build's figure is what the budget
 * holds.
 */
import { existsSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { TraceMap, eachMapping, type EachMapping } from "@jridgewell/trace-mapping";
import { builtPrecache } from "../build/voter-precache.ts";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const gzipKB = (text: string | Uint8Array) => gzipSync(text, { level: 9 }).length / 1024;

/** The package a source belongs to: `node_modules/<name>` (scoped too), or the app's folder. */
function packageOf(source: string | null): string {
  if (!source) return "(bundler glue)";
  const inModules = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (inModules) return inModules[1];
  if (/(?:^|\/)shared\/src\//.test(source)) return "shared";
  const inApp = /(?:^|\/)pwa\/src\/([^/]+)/.exec(source);
  return inApp ? `pwa/src/${inApp[1]}` : source;
}

/** The minified text of `code`, split by the package each mapped span comes from. */
function spansByPackage(code: string, map: TraceMap, into: Map<string, string[]>) {
  const lines = code.split("\n");
  const mappings: EachMapping[] = [];
  eachMapping(map, (mapping) => mappings.push(mapping));
  mappings.sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn);
  mappings.forEach((mapping, i) => {
    const next = mappings[i + 1];
    const line = lines[mapping.generatedLine - 1];
    const end = next?.generatedLine === mapping.generatedLine ? next.generatedColumn : line.length;
    const name = packageOf(mapping.source);
    if (!into.has(name)) into.set(name, []);
    into.get(name)!.push(line.slice(mapping.generatedColumn, end));
  });
}

if (!existsSync(`${dist}sw.js`)) {
  console.error("No build: run `npm run precache-by-package -w pwa`.");
  process.exit(2);
}
const spans = new Map<string, string[]>();
const scripts = builtPrecache(readFileSync(`${dist}sw.js`, "utf8")).precached.filter((url) => url.endsWith(".js"));
if (!scripts.some((url) => existsSync(`${dist}${url}.map`))) {
  console.error("No source maps: run `npm run precache-by-package -w pwa`.");
  process.exit(2);
}
for (const url of scripts) {
  const code = readFileSync(`${dist}${url}`, "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "");
  // The bundler's own small runtime chunks have no map.
  if (existsSync(`${dist}${url}.map`)) spansByPackage(code, new TraceMap(readFileSync(`${dist}${url}.map`, "utf8"), `${dist}${url}.map`), spans);
  else spans.set(`${url} (no map)`, [code]);
}
const rows = [...spans].map(([name, texts]) => ({ name, kb: gzipKB(texts.join("")) }));
const stylesheet = /<style[^>]*>([\s\S]*?)<\/style>/.exec(readFileSync(`${dist}index.html`, "utf8"))?.[1] ?? "";
rows.push({ name: "(index.html's stylesheet)", kb: gzipKB(stylesheet) });
rows.sort((a, b) => b.kb - a.kb);
const small = rows.filter((row) => row.kb < 1);
for (const row of rows.filter((row) => row.kb >= 1)) console.log(`${row.kb.toFixed(1).padStart(7)} KB gzip  ${row.name}`);
console.log(`${small.reduce((sum, row) => sum + row.kb, 0).toFixed(1).padStart(7)} KB gzip  ${small.length} smaller ones: ${small.map((row) => row.name).join(", ")}`);
console.log(`${rows.reduce((sum, row) => sum + row.kb, 0).toFixed(1).padStart(7)} KB gzip  in all, each compressed alone`);
