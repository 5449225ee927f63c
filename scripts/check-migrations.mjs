// `npm run db:check`: fails when api/src/db/schema.ts and the migrations in api/drizzle disagree,
// that is when `npm run db:generate` would write a migration. Runs drizzle-kit on a copy of the
// folder, so the checkout is never touched. See docs/operations.md, "Changing the schema".
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// drizzle-kit takes --out relative to the working directory, so the copy lives inside it.
const copy = "node_modules/.cache/evoting-db-check";
rmSync(join(root, copy), { recursive: true, force: true });
cpSync(join(root, "api/drizzle"), join(root, copy), { recursive: true });

const kit = spawnSync(
  join(root, "node_modules/.bin/drizzle-kit"),
  ["generate", "--dialect=sqlite", "--schema=./api/src/db/schema.ts", `--out=./${copy}`],
  { cwd: root, encoding: "utf8" },
);
if (kit.status !== 0) {
  process.stderr.write(kit.stdout + kit.stderr);
  process.exit(kit.status ?? 1);
}

const files = (dir) => readdirSync(dir, { recursive: true }).map(String).sort();
const before = files(join(root, "api/drizzle"));
const added = files(join(root, copy)).filter((f) => !before.includes(f));
const sql = added.filter((f) => f.endsWith(".sql")).map((f) => readFileSync(join(root, copy, f), "utf8"));
rmSync(join(root, copy), { recursive: true, force: true });
if (added.length === 0) {
  console.log("db:check: schema.ts and api/drizzle agree (nothing to generate)");
} else {
  console.error("db:check: api/src/db/schema.ts differs from the migrations in api/drizzle.");
  console.error("Run `npm run db:generate` and commit the new migration with the schema change.");
  console.error(`drizzle-kit would write ${added.join(", ")}:\n${sql.join("\n")}`);
  process.exit(1);
}
