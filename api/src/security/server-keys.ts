/**
 * Where the server's master secret comes from, shared by the server and the console scripts:
 * BALLOT_KEY, else BALLOT_KEY_FILE, else `ballot.key` beside the database file.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Env } from "../env.ts";
import { loadKeys, type Keys } from "./keys.ts";

export function serverKeyFile(env: Pick<Env, "BALLOT_KEY_FILE">, databaseFilePath: string | null): string {
  return env.BALLOT_KEY_FILE ?? (databaseFilePath ? join(dirname(databaseFilePath), "ballot.key") : resolve("data/ballot.key"));
}

/**
 * The server's keys when they exist already, else null. Scripts use this: a check must never
 * create a new key file the server would then pick up in place of the lost one.
 */
export function existingServerKeys(env: Pick<Env, "BALLOT_KEY" | "BALLOT_KEY_FILE">, databaseFilePath: string | null): Keys | null {
  const keyFile = serverKeyFile(env, databaseFilePath);
  if (!env.BALLOT_KEY && !existsSync(keyFile)) return null;
  return loadKeys({ secret: env.BALLOT_KEY, keyFile, log: () => {} });
}
