/**
 * Importing the voter roll from CSV, in two steps that share one plan: `planRollImport` reads
 * and checks the whole file against the roll as stored (nothing written) and returns the
 * report plus the statements that would apply it; `applyRollPlan` runs those statements as
 * ONE write transaction, so a file with any error, or one that no longer fits the roll by the
 * time it is applied, writes nothing.
 *
 * Dates of birth are compared and stored as keyed hashes (security/passwords.ts): checking
 * 10,000 rows costs milliseconds, where argon2id would cost minutes (bench/import.ts).
 */
import { randomUUID } from "node:crypto";
import { CsvError, parse } from "csv-parse/sync";
import type { InStatement } from "@libsql/client";
import {
  MAX_ROLL_HEADER_CELLS,
  MAX_ROLL_ROWS,
  REQUIRED_ROLL_COLUMNS,
  checkRollRow,
  isStaff,
  messages,
  rollColumnOf,
  rollMessages,
  type RollColumn,
  type RollIssue,
  type RollReport,
} from "@evoting/shared";
import type { Database } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import type { Keys } from "../../security/keys.ts";
import { hashDateOfBirth } from "../../security/passwords.ts";
import type { Deps } from "../../deps.ts";

export class RollTooLarge extends Error {}
/** A file refused as a whole, before its rows are read (400). */
export class RollRefused extends Error {}

const YIELD_EVERY = 500;

interface CsvRow {
  line: number;
  cells: Partial<Record<RollColumn, string>>;
}

/** How many cells the first record has (0 when it does not parse: the full parse reports why). */
function headerCells(normalised: string): number {
  try {
    const [first] = parse(normalised, { bom: true, to_line: 1, record_delimiter: "\n", relax_column_count: true }) as string[][];
    return first?.length ?? 0;
  } catch {
    return 0;
  }
}

/** The CSV's rows by canonical column, with their first line; header and syntax problems as issues. */
export function readRollCsv(text: string): { rows: CsvRow[]; issues: RollIssue[] } {
  // One line ending for the whole file, so a line number means the same in every editor and
  // a file mixing CRLF and LF (hand-edited exports) still parses; the parsing itself is csv-parse's.
  const normalised = text.replace(/\r\n?/g, "\n");
  // The header alone first: a file whose header is far wider than a roll's is refused before
  // the rest of it is parsed.
  if (headerCells(normalised) > MAX_ROLL_HEADER_CELLS) throw new RollRefused(rollMessages.headerTooWide(MAX_ROLL_HEADER_CELLS));
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With `info: true` each record comes as { record, info } (the typings do not follow the option).
    records = (parse as (input: string, options: object) => typeof records)(normalised, {
      bom: true,
      info: true,
      record_delimiter: "\n",
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    });
  } catch (error) {
    if (error instanceof CsvError) return { rows: [], issues: [{ line: Number(error.lines ?? 1), column: "", message: error.message }] };
    throw error;
  }
  if (records.length - 1 > MAX_ROLL_ROWS) throw new RollTooLarge(messages.rollTooManyRows);
  if (records.length < 2) return { rows: [], issues: [{ line: 1, column: "", message: messages.rollEmpty }] };

  const firstLine = (r: { record: string[]; info: { lines: number } }) => r.info.lines - r.record.join("").split("\n").length + 1;
  const [header, ...body] = records;
  const headerLine = firstLine(header);
  const columns: (RollColumn | null)[] = [];
  const issues: RollIssue[] = [];
  for (const cell of header.record) {
    const column = rollColumnOf(cell);
    if (!column && cell.trim() !== "") issues.push({ line: headerLine, column: cell, message: rollMessages.unknownColumn(cell) });
    else if (column && columns.includes(column)) issues.push({ line: headerLine, column, message: rollMessages.repeatedColumn(column) });
    columns.push(column);
  }
  for (const required of REQUIRED_ROLL_COLUMNS) {
    if (!columns.includes(required)) issues.push({ line: headerLine, column: required, message: rollMessages.missingColumn(required) });
  }
  if (issues.length > 0) return { rows: [], issues };

  // Each row reads only the header's known columns: its cost follows its own cells.
  const known = columns.flatMap((column, i) => (column ? [[i, column] as const] : []));
  const rows: CsvRow[] = [];
  for (const r of body) {
    const line = firstLine(r);
    let extra = false;
    for (let i = columns.length; i < r.record.length && !extra; i++) extra = r.record[i].trim() !== "";
    if (extra) issues.push({ line, column: "", message: rollMessages.extraCells(r.record.length, columns.length) });
    const cells: Partial<Record<RollColumn, string>> = {};
    for (const [i, column] of known) cells[column] = r.record[i] ?? "";
    rows.push({ line, cells });
  }
  return { rows, issues };
}

interface StoredVoter {
  id: string;
  name: string;
  email: string | null;
  groups: string;
  role: string;
  dobHash: string | null;
  /** Disabled: a voter a new election took off the roll (staff are never matched). */
  offRoll: boolean;
}

export interface RollPlan {
  report: Omit<RollReport, "dryRun">;
  statements: InStatement[];
}

/** Checks the file against itself and the stored roll; writes nothing. */
export async function planRollImport(database: Database, keys: Pick<Keys, "dob">, text: string, now: number): Promise<RollPlan> {
  const { rows, issues } = readRollCsv(text);
  const stored = new Map<string, StoredVoter>();
  const roll = await database.db
    .select({ id: users.id, matricNumber: users.matricNumber, name: users.name, email: users.email, groups: users.groups, role: users.role, dobHash: users.dobHash, disabledAt: users.disabledAt })
    .from(users);
  for (const { matricNumber, disabledAt, ...r } of roll) stored.set(matricNumber, { ...r, offRoll: disabledAt !== null });

  const statements: InStatement[] = [];
  const firstSeen = new Map<string, number>();
  let created = 0;
  let updated = 0;
  let unchanged = 0;
  for (const [index, { line, cells }] of rows.entries()) {
    // Checking 10,000 rows takes a second or more of CPU: let other requests (votes, sign-ins)
    // through every few hundred rows instead of holding the event loop for all of it.
    if (index % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    const { row, issues: rowIssues } = checkRollRow(cells, line);
    issues.push(...rowIssues);
    if (!row) continue;
    const earlier = firstSeen.get(row.matricNumber);
    if (earlier !== undefined) {
      issues.push({ line, column: "matricNumber", message: rollMessages.duplicateInFile(earlier) });
      continue;
    }
    firstSeen.set(row.matricNumber, line);
    const existing = stored.get(row.matricNumber);
    if (existing && isStaff(existing.role)) {
      issues.push({ line, column: "matricNumber", message: messages.rollStaffMatric });
      continue;
    }
    const dobHash = hashDateOfBirth(keys.dob, row.matricNumber, row.dateOfBirth);
    const groups = JSON.stringify(row.groups);
    if (!existing) {
      created++;
      statements.push({
        sql: "INSERT INTO users (id, name, matric_number, role, email, dob_hash, groups, created_at) VALUES (?, ?, ?, 'voter', ?, ?, ?, ?)",
        args: [randomUUID(), row.name, row.matricNumber, row.email, dobHash, groups, now],
      });
    } else if (existing.name !== row.name || existing.email !== row.email || existing.groups !== groups || existing.dobHash !== dobHash || existing.offRoll) {
      // An old argon2id date-of-birth hash never equals the keyed one: such a row is rewritten once.
      updated++;
      // Only the row as it was read: a voter deleted or edited meanwhile matches nothing, and the
      // guard after it then undoes the whole import.
      statements.push(
        {
          // A voter taken off the roll by a new election comes back on it when the new roll lists them.
          sql: `UPDATE users SET name = ?, email = ?, groups = ?, dob_hash = ?, disabled_at = NULL
                 WHERE id = ? AND role NOT IN ('admin', 'observer', 'officer') AND name = ? AND email IS ? AND groups = ? AND dob_hash IS ?`,
          args: [row.name, row.email, groups, dobHash, existing.id, existing.name, existing.email, existing.groups, existing.dobHash],
        },
        ROLL_UNCHANGED_GUARD,
      );
    } else {
      unchanged++;
    }
  }
  issues.sort((a, b) => a.line - b.line);
  return { report: { total: rows.length, created, updated, unchanged, errors: issues }, statements };
}

/**
 * Fails the import's transaction (so it writes nothing) unless the statement before it changed
 * exactly one row. SQLite has no RAISE outside triggers; json() of text that is not JSON is an
 * error only when evaluated, which is only when the row was not there as read.
 */
const ROLL_UNCHANGED_GUARD = "SELECT CASE WHEN changes() = 1 THEN 1 ELSE json('the roll changed while this file was imported') END";

/** Applies a clean plan in one transaction; false when the roll changed under it (nothing written). */
export async function applyRollPlan({ database, sessions }: Pick<Deps, "database" | "sessions">, plan: RollPlan, extra: InStatement[]): Promise<boolean> {
  if (plan.statements.length === 0) return true;
  try {
    await database.writer.submit([...plan.statements, ...extra]);
    sessions.invalidate(); // updated voters' names, emails and groups
    return true;
  } catch {
    // A matric number taken since the check (unique index), or a voter deleted or edited since
    // (the guard): the whole transaction rolled back.
    return false;
  }
}
