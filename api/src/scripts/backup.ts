/**
 * `npm run backup -- --out <file>`: a consistent copy of the election database, safe to take
 * while the election runs.
 *
 * `VACUUM INTO` copies the database as one read transaction: in WAL mode it neither blocks
 * the server's writer nor sees half a vote batch, so the copy is a snapshot of one instant.
 * The copy is then opened and audited (integrity, ballots + pending = participations per position,
 * tallies = recount) before the command reports success.
 *
 * Restore: stop the server, copy the backup over the DATABASE_URL file (delete any stale
 * `-wal`/`-shm` files beside it), and start the server with the SAME ballot key (BALLOT_KEY,
 * or the key file: BALLOT_KEY_FILE, in production outside the database's folder). Ballots a
 * copy holds as pending are applied by the restored server's mixer. Without that key the copy's votes still
 * count, but voters' own choices (my-votes) and idempotent replays cannot be unsealed. Back
 * the key up separately from the database copies: together they are the whole secret.
 *
 * Admin-only by construction: it needs the server machine's filesystem and its environment.
 * Only local `file:` databases; a libSQL server has its own backups.
 */
import { createClient } from "@libsql/client";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { databaseFilePath, openDatabase } from "../db/client.ts";
import { checkTallies, type TallyCheckReport } from "../services/accountability/tally-check.ts";
import { AuditLog, OPERATOR } from "../services/accountability/audit-log.ts";
import type { Keys } from "../security/keys.ts";

export interface BackupResult {
  out: string;
  bytes: number;
  ms: number;
  audit: TallyCheckReport;
}

/** With the server's keys, the copy's audit tells a pass's applied pending rows from pending ones. */
export async function backupDatabase(sourceUrl: string, outPath: string, keys?: Pick<Keys, "seal"> | null): Promise<BackupResult> {
  const source = databaseFilePath(sourceUrl);
  if (!source) throw new Error(`Backups need a local file: database; got ${sourceUrl}`);
  if (!existsSync(source)) throw new Error(`No database at ${source}`);
  const out = resolve(outPath);
  if (existsSync(out)) throw new Error(`${out} exists already; choose a new file (backups never overwrite)`);
  mkdirSync(dirname(out), { recursive: true });

  const started = performance.now();
  // A separate connection, as another process would have: the server keeps writing meanwhile.
  const client = createClient({ url: `file:${source}`, concurrency: 1 });
  try {
    await client.execute("PRAGMA busy_timeout = 10000");
    await client.execute({ sql: "VACUUM INTO ?", args: [out] });
  } finally {
    client.close();
  }
  const ms = performance.now() - started;

  const copy = await openDatabase({ url: `file:${out}` });
  try {
    const audit = await checkTallies(copy, keys);
    // The copy is a plain file: no WAL to ship beside it.
    await copy.client.execute("PRAGMA journal_mode = DELETE");
    return { out, bytes: statSync(out).size, ms, audit };
  } finally {
    copy.close();
  }
}

/** Records the backup in the source database's audit log, as the operator at the console. */
export async function recordBackup(sourceUrl: string, keys: Keys, result: BackupResult, at: number): Promise<void> {
  const database = await openDatabase({ url: sourceUrl });
  try {
    await new AuditLog(database, keys).append({
      action: "backup",
      target: `file:${result.out}`,
      summary: `Backed up the database (${(result.bytes / 1024).toFixed(0)} KiB, ${result.audit.ballots} ballots, copy check ${result.audit.ok ? "passed" : "FAILED"})`,
      actor: OPERATOR,
      address: "console",
      at,
    });
    await database.writer.drain();
  } finally {
    database.close();
  }
}

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf("--out");
  const inline = args.find((a) => a.startsWith("--out="));
  const outPath = inline ? inline.slice("--out=".length) : at >= 0 ? args[at + 1] : undefined;
  if (!outPath) {
    console.error("usage: npm run backup -- --out <file>   (reads DATABASE_URL like the server)");
    process.exit(2);
  }
  const { parseEnv } = await import("../env.ts");
  const { existingServerKeys } = await import("../security/server-keys.ts");
  const env = parseEnv();
  try {
    const keys = existingServerKeys(env, databaseFilePath(env.DATABASE_URL));
    const r = await backupDatabase(env.DATABASE_URL, outPath, keys);
    if (keys) await recordBackup(env.DATABASE_URL, keys, r, Date.now());
    else console.warn("Not recorded in the audit log: the server key (BALLOT_KEY or ballot.key) was not found.");
    console.log(`Backed up ${env.DATABASE_URL} to ${r.out} (${(r.bytes / 1024).toFixed(0)} KiB) in ${r.ms.toFixed(0)} ms.`);
    console.log(
      `Copy audit: integrity ${r.audit.integrity}, ${r.audit.ballots} ballots (+${r.audit.pending} not yet applied by the mixer), ${r.audit.participations} participations, ` +
        `${r.audit.positionMismatches.length} position mismatches, ${r.audit.tallyMismatches.length} tally mismatches.`,
    );
    console.log("Restore needs the ballot key (BALLOT_KEY or the key file) too: keep it safe and apart from this copy, since together they unseal every voter's choice.");
    process.exit(r.audit.ok ? 0 : 1);
  } catch (e) {
    console.error(`Backup failed: ${(e as Error).message}`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
