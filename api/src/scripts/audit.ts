/**
 * `npm run audit`: checks the configured database is consistent (ballots, tallies, integrity)
 * and that the audit log's hash chain and signed head are intact; names every broken entry.
 * Exits 1 when anything is wrong.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Database } from "../db/client.ts";
import { verifyAuditChain } from "../services/accountability/audit-log.ts";
import { checkTallies } from "../services/accountability/tally-check.ts";
import { chainProblems, runIntegrityCheck, tallyProblems } from "../services/accountability/ballot-integrity.ts";
import type { Keys } from "../security/keys.ts";
import { ARCHIVE_READS, archiveProblems } from "../services/election/archive-seal.ts";

export async function runAudit(database: Database, keys: Keys | null) {
  // With the key: every participation against its ballot and every ballot's MAC, beside the recounts.
  const checked = keys ? await runIntegrityCheck(database, keys) : null;
  const data = checked?.tallies ?? (await checkTallies(database));
  const chain = checked?.chain ?? (await verifyAuditChain(database, null));
  const ballots = checked?.ballots ?? null;
  // Without the key, archives are still checked against their declarations' audit entries.
  const [archives, declarations] = checked ? [] : await database.client.batch([...ARCHIVE_READS], "read");
  const archived = checked || !archives || !declarations ? [] : archiveProblems(null, archives.rows, declarations.rows);
  const lines = checked ? [...checked.problems] : [...tallyProblems(data), ...chainProblems(chain), ...archived];
  if (!ballots) lines.push("Ballots not checked against participations: the server key (BALLOT_KEY or ballot.key) was not found");
  if (chain.anchor === "unchecked") lines.push("Audit log head not checked: the server key (BALLOT_KEY or ballot.key) was not found");
  return {
    ...data,
    ok: data.ok && chain.problems.length === 0 && (ballots?.ok ?? true) && archived.length === 0 && (checked?.ok ?? true),
    ballotMatches: ballots ? { ok: ballots.ok, unsigned: ballots.unsigned, problems: ballots.problems.length } : "unchecked",
    auditLog: { entries: chain.entries, headSeq: chain.headSeq, head: chain.head, signedHead: chain.anchor, problems: chain.problems },
    lines,
  };
}

async function main() {
  const [{ openDatabase }, { parseEnv }, { existingServerKeys }] = await Promise.all([
    import("../db/client.ts"),
    import("../env.ts"),
    import("../security/server-keys.ts"),
  ]);
  const env = parseEnv();
  const database = await openDatabase({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
  const keys = existingServerKeys(env, database.filePath);
  const { lines, ...report } = await runAudit(database, keys);
  database.close();
  console.log(JSON.stringify(report, null, 2));
  for (const line of lines) console.error(line);
  process.exit(report.ok ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
