/**
 * Launches the load generator as a separate node process and returns its figures:
 * lean-worker.ts unless the config asks for autocannon (cannon-worker.ts).
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { CannonConfig } from "./cannon-worker.ts";
import { ROOT } from "./server.ts";

export interface CannonResult {
  reqPerSec: number;
  total: number;
  durationS: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  /** CPU the load generator itself used while it ran, % of one core. */
  cpuPct: number;
}

export async function runCannon(config: CannonConfig, scratchDir: string): Promise<CannonResult> {
  const file = join(scratchDir, `cannon-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", config.loadgen === "autocannon" ? "bench/lib/cannon-worker.ts" : "bench/lib/lean-worker.ts", file], {
    cwd: ROOT,
    timeout: (config.durationS + 120) * 1000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = stdout.trim().split("\n").pop()!;
  return JSON.parse(line) as CannonResult;
}
