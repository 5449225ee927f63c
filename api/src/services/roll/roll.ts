/**
 * The voter roll as admins see and fix it: a searchable, filterable page of voters, edits,
 * password resets, deletes, and the CSV export. Only voters (not staff accounts) are on the
 * roll. Whether someone voted is read as "has a participation row" and nothing more: this
 * module never reads or changes what anyone voted for.
 */
import { VOTERS_PAGE_SIZE, toCsv, ROLL_EXPORT_COLUMNS, type VoterListItem, type VoterPage } from "@evoting/shared";
import type { InArgs } from "@libsql/client";
import type { Database } from "../../db/client.ts";
import { isVoterSql } from "../../db/voters.ts";
import type { Keys } from "../../security/keys.ts";
import { hashDateOfBirth } from "../../security/passwords.ts";
import { bumpResultsVersionSql } from "../results/results.ts";
import { endSessionsStatement } from "../auth/sessions.ts";
import type { Deps } from "../../deps.ts";
import { CURRENT_POSITIONS_SQL } from "../../db/elections.ts";

/** What a write to users needs: the database, and the session cache it must empty after the commit. */
type UserWriter = Pick<Deps, "database" | "sessions">;

const VOTER = isVoterSql("u");
/** Voted in the current election (what the roll shows and filters by). */
const HAS_VOTED = `EXISTS (SELECT 1 FROM participations p WHERE p.voter_id = u.id AND p.position_id IN ${CURRENT_POSITIONS_SQL})`;
/** Voted in any election: such a voter is never deleted, so no election loses a participation. */
const HAS_EVER_VOTED = "EXISTS (SELECT 1 FROM participations p WHERE p.voter_id = u.id)";
const COLUMNS = `u.id, u.name, u.matric_number, u.email, u.groups, u.password_hash IS NOT NULL AS has_password, ${HAS_VOTED} AS has_voted`;

export interface VoterFilter {
  query?: string;
  group?: string;
  voted?: boolean;
}

/**
 * SQL: the filter is SQL text shared by the list, its count and the export (LIKE ... ESCAPE,
 * instr on the stored JSON, the voted subquery), measured on a 10,000-voter roll.
 */
function where(filter: VoterFilter): { sql: string; args: InArgs } {
  const parts = [VOTER];
  const args: (string | number)[] = [];
  const query = filter.query?.trim();
  if (query) {
    // LIKE ignores ASCII case and is ~2x cheaper than instr(lower()); "%", "_" and backslash in
    // what was typed are escaped so they match themselves.
    const pattern = `%${query.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    parts.push("(u.matric_number LIKE ? ESCAPE '\\' OR u.name LIKE ? ESCAPE '\\')");
    args.push(pattern, pattern);
  }
  if (filter.group) {
    // Groups are stored as a JSON array of labels that cannot hold a quote or backslash
    // (shared/src/roll.ts), so the quoted label appears in the text exactly when it is an
    // element: a substring test, ~5x cheaper than json_each per row.
    parts.push("instr(u.groups, json_quote(?)) > 0");
    args.push(filter.group);
  }
  if (filter.voted !== undefined) parts.push(filter.voted ? HAS_VOTED : `NOT ${HAS_VOTED}`);
  return { sql: parts.join(" AND "), args };
}

function toItem(r: Record<string, unknown>): VoterListItem {
  return {
    _id: String(r.id),
    name: String(r.name),
    matricNumber: String(r.matric_number),
    email: r.email === null ? null : String(r.email),
    groups: JSON.parse(String(r.groups)) as string[],
    hasPassword: Number(r.has_password) === 1,
    hasVoted: Number(r.has_voted) === 1,
  };
}

export async function listVoters(database: Database, filter: VoterFilter, page: number, pageSize = VOTERS_PAGE_SIZE): Promise<VoterPage> {
  const w = where(filter);
  const [rows, count] = await database.client.batch(
    [
      {
        sql: `SELECT ${COLUMNS} FROM users u WHERE ${w.sql} ORDER BY u.matric_number LIMIT ? OFFSET ?`,
        args: [...(w.args as (string | number)[]), pageSize, (page - 1) * pageSize],
      },
      { sql: `SELECT count(*) AS n FROM users u WHERE ${w.sql}`, args: w.args },
    ],
    "read",
  );
  return { items: rows.rows.map(toItem), total: Number(count.rows[0].n), page, pageSize };
}

/** Every group label on the roll with how many voters carry it (the filter's choices). */
export async function rollGroups(database: Database): Promise<{ name: string; voters: number }[]> {
  // SQL: json_each, a table-valued function drizzle has no builder for.
  const rs = await database.client.execute(
    `SELECT g.value AS name, count(*) AS voters FROM users u, json_each(u.groups) g WHERE ${VOTER} GROUP BY g.value ORDER BY g.value`,
  );
  return rs.rows.map((r) => ({ name: String(r.name), voters: Number(r.voters) }));
}

export async function findVoter(database: Database, id: string): Promise<(VoterListItem & { hasDateOfBirth: boolean }) | null> {
  const rs = await database.client.execute({
    sql: `SELECT ${COLUMNS}, u.dob_hash IS NOT NULL AS has_dob FROM users u WHERE u.id = ? AND ${VOTER}`,
    args: [id],
  });
  const row = rs.rows[0];
  return row ? { ...toItem(row), hasDateOfBirth: Number(row.has_dob) === 1 } : null;
}

export interface VoterChanges {
  name?: string;
  dateOfBirth?: string;
  email?: string | null;
  groups?: string[];
}

/** Changes the voter's own fields only: votes and password stay as they are; a new date of birth ends their sessions. */
export async function updateVoter({ database, sessions }: UserWriter, keys: Pick<Keys, "dob">, voter: VoterListItem, changes: VoterChanges, now: number) {
  const sets: string[] = [];
  const args: (string | null)[] = [];
  const set = (column: string, value: string | null) => {
    sets.push(`${column} = ?`);
    args.push(value);
  };
  if (changes.name !== undefined) set("name", changes.name);
  if (changes.email !== undefined) set("email", changes.email);
  if (changes.groups !== undefined) set("groups", JSON.stringify(changes.groups));
  if (changes.dateOfBirth !== undefined) {
    set("dob_hash", hashDateOfBirth(keys.dob, voter.matricNumber, changes.dateOfBirth));
  }
  if (sets.length === 0) return;
  await database.writer.submit([
    { sql: `UPDATE users SET ${sets.join(", ")} WHERE id = ? AND role NOT IN ('admin', 'observer', 'officer')`, args: [...args, voter._id] },
    // A new date of birth is a new credential: sessions signed in with the old one end, as on a password reset.
    ...(changes.dateOfBirth !== undefined ? [endSessionsStatement(voter._id, now)] : []),
  ]);
  sessions.invalidate(); // a signed-in voter's session carries name, email and groups
}

/** Removes the password (the voter signs in by date of birth again) and ends every session. */
export async function resetVoterPassword({ database, sessions }: UserWriter, id: string, now: number) {
  await database.writer.submit([
    { sql: "UPDATE users SET password_hash = NULL WHERE id = ?", args: [id] },
    endSessionsStatement(id, now),
  ]);
  sessions.invalidate();
}

/**
 * Deletes a voter who has not voted, in one statement so a vote arriving at the same moment
 * either lands first (and the delete is refused) or finds no voter. True when deleted.
 */
export async function deleteVoterIfNotVoted({ database, sessions }: UserWriter, id: string): Promise<boolean> {
  const [deleted] = await database.writer.submit([
    { sql: `DELETE FROM users AS u WHERE u.id = ? AND ${VOTER} AND NOT ${HAS_EVER_VOTED}`, args: [id] },
    `${bumpResultsVersionSql} AND changes() > 0`, // registered voters changed
  ]);
  sessions.invalidate(); // the voter's sessions went with the row
  return deleted.rowsAffected === 1;
}

/** The whole roll as CSV (docs/roll.md), every cell formula-escaped. */
export async function exportRollCsv(database: Database): Promise<string> {
  const rs = await database.client.execute(`SELECT ${COLUMNS} FROM users u WHERE ${VOTER} ORDER BY u.matric_number`);
  const rows = rs.rows.map((r) => {
    const v = toItem(r);
    return [v.matricNumber, v.name, v.email ?? "", v.groups.join(";"), v.hasPassword, v.hasVoted];
  });
  return toCsv(ROLL_EXPORT_COLUMNS, rows);
}
