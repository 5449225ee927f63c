/**
 * `npm run recount -- FILE.blt [--json]`: counts a BLT file as the results count a ranked
 * position (docs/counting.md; shared/src/counting/recount.ts): Scottish STV for several
 * seats, instant-runoff for one. The stage table, or with --json the figures as JSON. A file
 * that cannot be read gets one line naming the line at fault and exit 1, never a stack trace.
 * It needs neither the database nor the server's key: anyone with the downloaded file can run it.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { BltError, readBlt, recountBlt, recountJson, stageTable } from "@evoting/shared";

const USAGE = "usage: npm run recount -- FILE.blt [--json]";

/** What the command prints and its exit code, for the arguments it was given. */
export function recount(args: readonly string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const json = args.includes("--json");
  const rest = args.filter((a) => a !== "--json");
  if (rest.length !== 1 || rest[0].startsWith("-")) return { code: 2, stdout: "", stderr: `${USAGE}\n` };
  const path = isAbsolute(rest[0]) ? rest[0] : resolve(cwd, rest[0]);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a folder, not a file" : code === "EACCES" ? "not readable" : String(code ?? error);
    return { code: 1, stdout: "", stderr: `recount: ${rest[0]}: ${why}\n` };
  }
  try {
    const counted = recountBlt(readBlt(text));
    return { code: 0, stdout: json ? `${JSON.stringify(recountJson(counted), null, 2)}\n` : stageTable(counted), stderr: "" };
  } catch (error) {
    if (error instanceof BltError) return { code: 1, stdout: "", stderr: `recount: ${rest[0]}: ${error.message}\n` };
    const message = error instanceof Error ? error.message : String(error);
    return { code: 1, stdout: "", stderr: `recount: ${rest[0]}: ${message.split("\n")[0]}\n` };
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  // npm runs scripts from the project's folder; INIT_CWD is where the operator typed the command.
  const { code, stdout, stderr } = recount(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = code;
}
