import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * Runs Debian's belenios-tool (2.0), the independent verifier these tests hold the code to.
 * A machine without it fails loudly rather than skipping: interoperability is the point.
 */
export const BELENIOS_TOOL = process.env.BELENIOS_TOOL ?? "/usr/bin/belenios-tool";

export function requireBeleniosTool(): void {
  if (!existsSync(BELENIOS_TOOL)) {
    throw new Error(`belenios-tool is missing at ${BELENIOS_TOOL}: install Debian's package (apt-get install belenios-tool), as .ci/run does`);
  }
}

export function tool(cwd: string, args: string[], input?: string): string {
  requireBeleniosTool();
  try {
    return execFileSync(BELENIOS_TOOL, args, {
      cwd,
      input,
      encoding: "utf8",
      env: { ...process.env, BELENIOS_USE_URANDOM: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    throw new Error(`belenios-tool ${args.join(" ")} failed: ${err.stderr ?? ""}${err.stdout ?? ""}${err.message}`, { cause: e });
  }
}

/** `belenios-tool election verify` on a folder: its exit status and everything it printed. */
export function toolVerifies(dir: string): { ok: boolean; output: string } {
  requireBeleniosTool();
  const run = spawnSync(BELENIOS_TOOL, ["election", "verify", "--dir", dir], {
    encoding: "utf8",
    env: { ...process.env, BELENIOS_USE_URANDOM: "1" },
  });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}
