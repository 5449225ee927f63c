/**
 * Declaring an election's results: once voting has closed for good (the election's and every
 * position's end, plus the offline grace), its remaining ballots are applied, the integrity
 * check must pass, and the results as published are frozen into `election_archives` with the
 * election marked declared, in one write. After that nothing about it changes through the API
 * (http/election-guard.ts), and `GET /elections/:id` serves the archive.
 */
import { archiveMac, archiveSealHolds } from "./archive-seal.ts";
import type { Keys } from "../../security/keys.ts";
import { createHash } from "node:crypto";
import { messages, resultsCsv, type ElectionArchive, type ElectionSummary, type Results, type ResultsSheet, type VerifiableArchive } from "@evoting/shared";
import { and, desc, eq, max } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { disputedBallots, electionArchives, electionSettings, elections, pendingBallots, positions } from "../../db/schema.ts";
import { BUMP_CATALOG_VERSION, CURRENT_ELECTION_SQL } from "../../db/elections.ts";
import type { Deps } from "../../deps.ts";
import { auditHead } from "../accountability/audit-log.ts";
import { listPositions } from "./catalog.ts";
import { bumpResultsVersionSql } from "../results/results.ts";
import { currentElection, type ElectionRow } from "./elections.ts";
import { archiveBytes, awaitingDecryption, board, getVerifiable } from "../belenios/verifiable.ts";

export type Refusal = { refused: string; problems?: string[] };

const sha256Hex = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A statement that fails the write (undoing it whole) unless the one before changed exactly one row. */
export const onlyIfOneRow = (why: string) => `SELECT CASE WHEN changes() = 1 THEN 1 ELSE json('${why}') END`;

/** When the current election's results may be declared: its last end (election or position) plus the grace. */
export async function declarableAt(database: Database, election: ElectionRow, graceMs: number): Promise<number> {
  const { db } = database;
  const [[last], [settings]] = await db.batch([
    db.select({ end: max(positions.endTime) }).from(positions).where(eq(positions.electionId, election.id)),
    db.select({ endTime: electionSettings.endTime }).from(electionSettings).where(eq(electionSettings.id, 1)),
  ]);
  return Math.max(settings?.endTime ?? election.endTime, last?.end ?? -Infinity) + graceMs;
}

type DeclareDeps = Pick<Deps, "database" | "keys" | "mixer" | "integrity" | "results" | "receiptLists" | "config">;

export async function declareElection(deps: DeclareDeps, now: number): Promise<Refusal | { archive: ElectionArchive }> {
  const { database } = deps;
  const election = await currentElection(database);
  if (election.state !== "open") return { refused: messages.electionAlreadyDeclared };
  const at = await declarableAt(database, election, deps.config.voteGraceMs);
  if (now < at) return { refused: messages.declareTooEarly(new Date(at).toISOString()) };
  if ((await database.db.$count(disputedBallots)) > 0) return { refused: messages.declareHeldBallots };
  const toDecrypt = await awaitingDecryption(database);
  if (toDecrypt.length > 0) return { refused: `Every verifiable position must be decrypted by its trustees first: ${toDecrypt.join(", ")}.`, problems: toDecrypt };

  // Every position has closed for good, so the mixer applies what each still holds, however few.
  await deps.mixer.mix();
  const check = await deps.integrity.run("declaration");
  if ((await database.db.$count(pendingBallots)) > 0) return { refused: messages.declarePending };
  if (!check.ok) return { refused: messages.declareCheckFailed, problems: check.problems };
  const refused = await archiveElection(deps, election, now);
  if (refused) return refused;
  const archive = await readArchive(database, deps.keys, election.id);
  if (!archive || archive === "broken") throw new Error(`election ${election.id} was declared without a sound archive`);
  return { archive };
}

/** Freezes the current election's results as published, and marks it declared, in one write. */
async function archiveElection(deps: DeclareDeps, election: ElectionRow, now: number): Promise<Refusal | undefined> {
  const { database } = deps;
  // Archived as declared: from this write on the figures are final.
  const results: Results = { ...(await deps.results.current()), provisional: false };
  const csv = Buffer.from(resultsCsv(results), "utf8");
  const csvSha256 = sha256Hex(csv);
  const head = await auditHead(database);
  const sheet: ResultsSheet = { producedAt: new Date(now).toISOString(), results, csvSha256, audit: head };
  const positions = await listPositions(database.db);
  const receipts = [];
  for (const p of positions) {
    const list = await deps.receiptLists.of(p._id);
    if (!list) return { refused: messages.declarePending };
    receipts.push({ positionId: p._id, positionTitle: p.title, total: list.length, receipts: list });
  }
  // Each verifiable position's board is final (its Result is in): the sealed record keeps its
  // fingerprint and the SHA-256 of its .bel bytes, which Past Elections serves checked against it.
  const verifiable: VerifiableArchive[] = [];
  for (const p of positions) {
    const v = await getVerifiable(database, p._id);
    const bytes = v ? await archiveBytes(database, p._id) : null;
    const b = bytes ? await board(database, p._id) : null;
    if (!v || !bytes || !b?.fingerprint) continue;
    verifiable.push({ positionId: p._id, positionTitle: p.title, uuid: v.uuid, fingerprint: b.fingerprint, archiveSha256: sha256Hex(Buffer.from(bytes)), ballots: b.trackers.length });
  }
  // SQL: the row is archived as the table holds it (its column names), whatever columns it has.
  const settings = { ...(await database.client.execute("SELECT * FROM election_settings WHERE id = 1")).rows[0] };
  const record = { sheet, receipts, settings, positions, ...(verifiable.length > 0 ? { verifiable } : {}) };
  const recordJson = JSON.stringify(record);
  const mac = archiveMac(deps.keys, {
    electionId: election.id,
    declaredAt: now,
    resultsCsv: csv,
    resultsSha256: csvSha256,
    auditSeq: head.headSeq,
    auditHash: head.head,
    record: recordJson,
  });

  try {
    await database.writer.submit([
      {
        sql: `INSERT INTO election_archives (election_id, declared_at, results_csv, results_sha256, audit_seq, audit_hash, record, mac)
              SELECT id, ?, ?, ?, ?, ?, ?, ? FROM elections WHERE id = ? AND state = 'open' AND id = ${CURRENT_ELECTION_SQL}
                AND NOT EXISTS (SELECT 1 FROM disputed_ballots)`,
        args: [now, csv, csvSha256, head.headSeq, head.head, recordJson, mac, election.id],
      },
      // Also undone by a ballot held from a lost device since the check above: the committee decides it first.
      onlyIfOneRow("the election was declared, or a ballot held, at the same time"),
      {
        sql: `UPDATE elections SET state = 'declared', declared_at = ?, title = ?, subtitle = ?, start_time = ?, end_time = ?
               WHERE id = ? AND state = 'open'`,
        args: [now, String(settings.title), String(settings.subtitle), Number(settings.start_time), Number(settings.end_time), election.id],
      },
      // Votes are checked against cached rules that know each position's election: every process reloads them.
      BUMP_CATALOG_VERSION,
      // The live results stop saying 'provisional'.
      bumpResultsVersionSql,
    ]);
  } catch (error) {
    // The guard's failure: another process declared it first, or a lost device's ballot was held.
    if ((await currentElection(database)).state !== "open") return { refused: messages.electionAlreadyDeclared };
    if ((await database.db.$count(disputedBallots)) > 0) return { refused: messages.declareHeldBallots };
    throw error;
  }
  return undefined;
}

const iso = (ms: unknown) => new Date(Number(ms)).toISOString();

export function toSummary(e: ElectionRow): ElectionSummary {
  return {
    id: e.id,
    title: e.title,
    subtitle: e.subtitle,
    startTime: iso(e.startTime),
    endTime: iso(e.endTime),
    state: e.state,
    declaredAt: e.declaredAt === null ? null : iso(e.declaredAt),
  };
}

/** The declared elections, newest first. */
export async function listDeclared(database: Database): Promise<ElectionSummary[]> {
  const rows = await database.db.select().from(elections).where(eq(elections.state, "declared")).orderBy(desc(elections.id));
  return rows.map(toSummary);
}

/**
 * A verifiable position's `.bel` file as declared: rebuilt from its board (frozen since its
 * Result) and served only when its bytes still hash to what the sealed archive names.
 */
export async function declaredBel(
  database: Database,
  keys: Keys,
  electionId: number,
  positionId: string,
): Promise<{ bytes: Uint8Array; entry: VerifiableArchive } | "broken" | undefined> {
  const archive = await readArchive(database, keys, electionId);
  if (archive === "broken") return "broken";
  const entry = archive?.verifiable?.find((v) => v.positionId === positionId);
  if (!entry) return undefined;
  const bytes = await archiveBytes(database, positionId);
  if (!bytes || sha256Hex(Buffer.from(bytes)) !== entry.archiveSha256) return "broken";
  return { bytes, entry };
}

/**
 * A declared election's archive, as published; undefined for any other id; `broken` when the
 * row fails its seal (archive-seal.ts): it is never served as the results.
 */
export async function readArchive(database: Database, keys: Keys, id: number): Promise<ElectionArchive | "broken" | undefined> {
  const [row] = await database.db
    .select({ election: elections, archive: electionArchives })
    .from(elections)
    .innerJoin(electionArchives, eq(electionArchives.electionId, elections.id))
    .where(and(eq(elections.id, id), eq(elections.state, "declared")));
  if (!row) return undefined;
  const { archive } = row;
  if (!archiveSealHolds(keys, archive)) return "broken";
  const record = JSON.parse(archive.record) as Pick<ElectionArchive, "sheet" | "receipts" | "settings" | "positions" | "verifiable">;
  return {
    election: toSummary(row.election),
    resultsCsv: archive.resultsCsv.toString("utf8"),
    resultsSha256: archive.resultsSha256,
    audit: { seq: archive.auditSeq, hash: archive.auditHash },
    ...record,
  };
}
