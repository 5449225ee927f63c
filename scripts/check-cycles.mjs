// Import cycles, type-only imports included (part of `npm run lint`). ESLint's import-x/no-cycle
// refuses cycles of value imports but skips `import type`; a cycle of types still ties two
// modules' meanings together (neither can move or split without the other), so it is refused
// here too. Reads every TypeScript source the root tsconfig includes with TypeScript's own
// import scanner; only relative imports make edges (workspace packages import each other one way).
// The same edges then check the PWA's folder layers (./layers.mjs).
// `node scripts/check-cycles.mjs --root=DIR` checks another checkout (an old commit, say).
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { layerViolations } from "./layers.mjs";

const rootArg = process.argv.find((a) => a.startsWith("--root="));
const root = rootArg ? resolve(rootArg.slice("--root=".length)) : join(dirname(fileURLToPath(import.meta.url)), "..");
const config = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const files = config.fileNames.filter((f) => /\.(ts|tsx|mts)$/.test(f) && !f.includes("/node_modules/"));

function resolveImport(from, specifier) {
  if (!specifier.startsWith(".")) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, ".ts"), `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

const edges = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  edges.set(file, [...new Set(importedFiles.map((i) => resolveImport(file, i.fileName)).filter((f) => f && files.includes(f)))]);
}

// Tarjan's strongly connected components: every component of more than one module is a cycle.
let index = 0;
const stack = [];
const state = new Map();
const cycles = [];
function visit(v) {
  state.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of edges.get(v) ?? []) {
    if (!state.has(w)) {
      visit(w);
      state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
    } else if (state.get(w).onStack) state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
  }
  if (state.get(v).low === state.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(component);
  }
}
for (const file of files) if (!state.has(file)) visit(file);

const layerProblems = layerViolations(edges, join(root, "pwa/src"));

if (cycles.length === 0) {
  console.log(`check-cycles: no import cycles among ${files.length} modules`);
} else {
  for (const component of cycles) {
    const inside = new Set(component);
    console.error(`Import cycle among ${component.length} modules:`);
    for (const f of component.sort()) {
      const to = edges.get(f).filter((t) => inside.has(t)).map((t) => relative(root, t));
      console.error(`  ${relative(root, f)} -> ${to.join(", ")}`);
    }
  }
}
if (layerProblems.length === 0) {
  console.log("check-cycles: the PWA's folders import one way (scripts/layers.mjs)");
} else {
  console.error(`${layerProblems.length} imports against the PWA's folder layers (scripts/layers.mjs):`);
  for (const line of layerProblems) console.error(`  ${line}`);
}
if (cycles.length > 0 || layerProblems.length > 0) process.exit(1);
