/**
 * Starts the real API (`node --import tsx api/src/server.ts`) as a child process on a
 * loopback port, the way an operator would, and stops or kills it by its own pid.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const ADMIN_MATRIC = "0000/5570000";
export const ADMIN_PASSWORD = "bench-admin-secret";
/** A fixed ballot key so the bench can unseal what the server sealed (crash checks). */
export const BALLOT_KEY = "b".repeat(16) + "e".repeat(16) + "0123456789abcdef".repeat(2);

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Lines the server printed (bounded). */
  output: string[];
  stop(): Promise<void>;
  kill(): Promise<void>;
}

export interface StartOptions {
  dbPath: string;
  port?: number;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Extra node flags for the server (e.g. --cpu-prof). */
  nodeArgs?: string[];
}

export async function startServer({ dbPath, port, env = {}, timeoutMs = 60_000, nodeArgs = [] }: StartOptions): Promise<RunningServer> {
  port ??= await freePort();
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "api/src/server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${dbPath}`,
      ADMIN_MATRIC,
      ADMIN_PASSWORD,
      BALLOT_KEY,
      DB_SYNCHRONOUS: "FULL",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const keep = (b: Buffer) => {
    for (const line of b.toString().split("\n")) if (line && output.length < 200) output.push(line);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((ok) => child.once("exit", () => ok()));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output.join("\n")}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not answer /api/health within ${timeoutMs} ms:\n${output.join("\n")}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  // A server that dies while a bench drives it fails the bench at once, with its output,
  // instead of leaving the load generator to hammer a closed port.
  let stopping = false;
  child.once("exit", (code, sig) => {
    if (stopping) return;
    console.error(`server exited unexpectedly (${code ?? sig}):\n${output.join("\n")}`);
    process.exit(1);
  });

  const signal = async (sig: NodeJS.Signals) => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return { url, port, pid: child.pid!, child, output, stop: () => signal("SIGTERM"), kill: () => signal("SIGKILL") };
}
