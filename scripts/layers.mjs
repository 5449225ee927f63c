// The PWA's folders in layers (part of `npm run lint`, through check-cycles.mjs). A module may
// import its own folder and the layers below its own, never one above and never a sibling on
// its own layer, so no two folders import each other and a newcomer reads the app bottom up:
// the session store, plain HTTP, the device store and outbox, query options and the cast, then
// the pieces, the screens and the routes. Tests (`*.test.*`, `src/test/`) may reach any layer;
// the entry files at the top of `src/` (main.tsx, router.ts, sw.ts, ...) wire the layers together.
import { relative, sep } from "node:path";

/** Lowest first. `components/ui` (buttons, cards) sits below the features that draw with it. */
export const PWA_LAYERS = [
  ["lib"],
  ["hooks"],
  ["auth"],
  ["api"],
  ["offline"],
  ["data"],
  ["components/ui"],
  ["chat", "station", "verifiable"],
  ["components"],
  ["screens"],
  ["routes"],
];

const rank = new Map(PWA_LAYERS.flatMap((folders, i) => folders.map((folder) => [folder, i])));

/** The folder a module belongs to ("components/ui", "offline", ...); null for entry files at the top. */
export function folderOf(file) {
  const parts = file.split("/");
  if (parts.length < 2) return null;
  if (parts[0] === "components" && parts[1] === "ui" && parts.length > 2) return "components/ui";
  return parts[0];
}

const isTest = (file) => /\.test\.[cm]?tsx?$/.test(file) || file.startsWith("test/");

/**
 * The imports that break the layers. `edges` maps a file to the files it imports (absolute
 * paths); only files under `srcDir` count. Returns one line per offending import.
 */
export function layerViolations(edges, srcDir) {
  const inSrc = (file) => {
    const rel = relative(srcDir, file).split(sep).join("/");
    return rel.startsWith("..") ? null : rel;
  };
  const problems = [];
  for (const [from, targets] of edges) {
    const source = inSrc(from);
    if (source === null || isTest(source)) continue;
    const a = folderOf(source);
    if (a === null) continue;
    for (const to of targets) {
      const target = inSrc(to);
      if (target === null) continue;
      const b = folderOf(target);
      if (b === null || b === a) continue;
      const where = `src/${source} imports src/${target}`;
      if (!rank.has(a)) problems.push(`${where}: src/${a}/ has no layer (add it to PWA_LAYERS in scripts/layers.mjs)`);
      else if (!rank.has(b)) problems.push(`${where}: src/${b}/ has no layer (add it to PWA_LAYERS in scripts/layers.mjs)`);
      else if (rank.get(b) >= rank.get(a)) {
        const below = PWA_LAYERS.slice(0, rank.get(a)).flat().map((f) => `${f}/`).join(", ");
        problems.push(`${where}: ${a}/ may import only ${below || "nothing outside itself"}`);
      }
    }
  }
  return problems;
}
