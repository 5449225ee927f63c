/**
 * A declared election's archive, sealed: an HMAC-SHA-256 under the server's `ballot` key
 * (domain-separated from ballot MACs by its first field) over every column of the row, made at
 * the declaration. Someone who can write the database file but lacks the key could otherwise
 * rewrite the CSV, its SHA-256 and the record together so every hash agrees, and every
 * signed-in user would read the other winner. The seal is checked wherever the archive is read
 * (GET /elections/:id), by the integrity check and by `npm run audit`; the SHA-256 is also
 * checked against the one the declaration's audit entry names (the audit chain is signed), which
 * needs no key.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Keys } from "../../security/keys.ts";

export interface ArchiveRow {
  electionId: number;
  declaredAt: number;
  resultsCsv: Buffer;
  resultsSha256: string;
  auditSeq: number;
  auditHash: string;
  record: string;
  mac: string | null;
}

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

export function archiveMac(keys: Pick<Keys, "ballot">, row: Omit<ArchiveRow, "mac">): string {
  const input = JSON.stringify(["archive", row.electionId, row.declaredAt, sha256(row.resultsCsv), row.resultsSha256, row.auditSeq, row.auditHash, sha256(row.record)]);
  return createHmac("sha256", keys.ballot).update(input).digest("hex");
}

/** Whether the row is as declared: its CSV hashes to its SHA-256 and, with the key, its seal holds. */
export function archiveSealHolds(keys: Pick<Keys, "ballot">, row: ArchiveRow): boolean {
  if (sha256(row.resultsCsv) !== row.resultsSha256 || row.mac === null) return false;
  const expected = Buffer.from(archiveMac(keys, row), "hex");
  const given = Buffer.from(row.mac, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What the archive checks read, in one read batch with the rest of a check. */
export const ARCHIVE_READS: readonly string[] = [
  "SELECT election_id, declared_at, results_csv, results_sha256, audit_seq, audit_hash, record, mac FROM election_archives ORDER BY election_id",
  "SELECT target, summary FROM audit_log WHERE action = 'election.declare' ORDER BY seq",
];

export function toArchiveRow(r: Record<string, unknown>): ArchiveRow {
  const csv = r.results_csv;
  return {
    electionId: Number(r.election_id),
    declaredAt: Number(r.declared_at),
    resultsCsv: csv instanceof ArrayBuffer ? Buffer.from(csv) : Buffer.from(csv as Uint8Array),
    resultsSha256: String(r.results_sha256),
    auditSeq: Number(r.audit_seq),
    auditHash: String(r.audit_hash),
    record: String(r.record),
    mac: r.mac === null || r.mac === undefined ? null : String(r.mac),
  };
}

/**
 * Sentences for every archive that is not as declared: against its own SHA-256 and its
 * declaration's audit entry always, against its seal when the key is at hand.
 */
export function archiveProblems(keys: Pick<Keys, "ballot"> | null, archives: Record<string, unknown>[], declarations: Record<string, unknown>[]): string[] {
  const problems: string[] = [];
  for (const raw of archives) {
    const row = toArchiveRow(raw);
    const name = `Election ${row.electionId}'s archive`;
    if (keys && !archiveSealHolds(keys, row)) problems.push(`${name} fails its seal (MAC) check: it was changed after the declaration`);
    const entry = declarations.find((d) => String(d.target).startsWith(`election:${row.electionId} "`));
    const published = `results.csv SHA-256 ${sha256(row.resultsCsv)}; audit head ${row.auditSeq} ${row.auditHash}`;
    if (!entry) problems.push(`${name} has no declaration audit entry`);
    else if (!String(entry.summary).endsWith(published) || row.resultsSha256 !== sha256(row.resultsCsv)) {
      problems.push(`${name} does not match the SHA-256 and audit head its declaration's audit entry names`);
    }
  }
  return problems;
}
