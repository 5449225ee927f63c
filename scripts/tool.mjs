// The operator commands run from the server bundle, so they work where only the production
// dependencies are installed, as the server does:
//
//   node scripts/tool.mjs audit | backup --out FILE | seed-demo [--force] | recount FILE.blt [--json]
//
// (`npm run audit`, `npm run backup -- --out FILE`, `npm run seed:demo`, `npm run recount -- FILE.blt`).
import { ensureBuilt, runBuilt } from "./built.mjs";

const TOOLS = ["audit", "backup", "seed-demo", "recount"];
const [tool, ...args] = process.argv.slice(2);
if (!TOOLS.includes(tool)) {
  console.error(`Usage: node scripts/tool.mjs <${TOOLS.join("|")}> [arguments]`);
  process.exit(2);
}
runBuilt(await ensureBuilt(tool), args);
