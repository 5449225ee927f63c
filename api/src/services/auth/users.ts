/** Accounts: creation, lookup, and the public profile shape. */
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { Role, StaffAccount, UserProfile } from "@evoting/shared";
import type { AuthUser } from "./auth-user.ts";
import type { Database, Db } from "../../db/client.ts";
import { endSessionsStatement, type SessionCache } from "./sessions.ts";
import { users } from "../../db/schema.ts";
import { statementOf } from "../../db/writer.ts";
import type { Keys } from "../../security/keys.ts";
import { hashDateOfBirth, hashSecret, verifyDateOfBirth } from "../../security/passwords.ts";

export type UserRow = typeof users.$inferSelect;

export function toProfile(u: Pick<UserRow, "id" | "name" | "role" | "matricNumber" | "email" | "passwordHash">): UserProfile {
  return {
    _id: u.id,
    name: u.name,
    role: u.role,
    matricNumber: u.matricNumber,
    email: u.email,
    hasPassword: u.passwordHash !== null,
  };
}

/** A user as a session carries it: the columns services/auth/sessions.ts reads for a token. */
export function sessionUser(u: Pick<UserRow, "id" | "name" | "role" | "matricNumber" | "email" | "passwordHash">): AuthUser {
  return { id: u.id, name: u.name, role: u.role, matricNumber: u.matricNumber, email: u.email, hasPassword: u.passwordHash !== null };
}

export async function findUserByMatric(db: Db, matricNumber: string): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.matricNumber, matricNumber)).limit(1))[0];
}

export interface NewUser {
  name: string;
  matricNumber: string;
  role?: Role;
  password?: string | null;
  dateOfBirth?: string | null;
  groups?: string[];
}

/**
 * Inserts a user; returns null when the matriculation number is taken (unique index decides).
 * A date of birth needs `keys` (it is stored as a keyed hash, security/passwords.ts).
 */
export async function createUser(database: Database, input: NewUser, now: number, keys?: Pick<Keys, "dob">): Promise<UserRow | null> {
  if (input.dateOfBirth && !keys) throw new Error("createUser: a date of birth needs the server's keys");
  const passwordHash = input.password ? await hashSecret(input.password) : null;
  const dobHash = input.dateOfBirth && keys ? hashDateOfBirth(keys.dob, input.matricNumber, input.dateOfBirth) : null;
  const id = randomUUID();
  const insert = database.db
    .insert(users)
    .values({
      id,
      name: input.name,
      matricNumber: input.matricNumber,
      role: input.role ?? "voter",
      passwordHash,
      dobHash,
      groups: JSON.stringify(input.groups ?? []),
      createdAt: now,
    })
    .onConflictDoNothing({ target: users.matricNumber });
  const [inserted] = await database.writer.submit([statementOf(insert)]);
  if (inserted.rowsAffected === 0) return null;
  return (await database.db.select().from(users).where(eq(users.id, id)))[0] ?? null;
}

/**
 * A date-of-birth sign-in (or proof, e.g. before setting a first password). A right answer
 * against an old argon2id hash replaces it with the keyed hash, so the roll moves to keyed
 * hashes as voters sign in; the replacement is conditioned on the old value, so a concurrent
 * edit of the date of birth wins.
 */
export async function checkDateOfBirth(
  database: Database,
  keys: Pick<Keys, "dob">,
  user: Pick<UserRow, "id" | "matricNumber" | "dobHash">,
  dateOfBirth: string,
): Promise<boolean> {
  if (!user.dobHash) return false;
  const { ok, legacy } = await verifyDateOfBirth(keys.dob, user.dobHash, user.matricNumber, dateOfBirth);
  if (ok && legacy) {
    await database.writer.submit([
      {
        sql: "UPDATE users SET dob_hash = ? WHERE id = ? AND dob_hash = ?",
        args: [hashDateOfBirth(keys.dob, user.matricNumber, dateOfBirth), user.id, user.dobHash],
      },
    ]);
  }
  return ok;
}

/** Observers and officers: the accounts an admin may disable (admins and voters are not). */
const disableable = inArray(users.role, ["observer", "officer"]);

export async function listStaff(database: Database): Promise<StaffAccount[]> {
  const rows = await database.db
    .select({ id: users.id, name: users.name, matricNumber: users.matricNumber, role: users.role, disabledAt: users.disabledAt })
    .from(users)
    .where(disableable)
    .orderBy(users.role, users.name, users.matricNumber);
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    matricNumber: r.matricNumber,
    role: r.role === "officer" ? "officer" : "observer",
    disabled: r.disabledAt !== null,
  }));
}

/**
 * Disables (at `now`) or enables an observer's or officer's account; disabling ends every
 * session in the same write. Null when no such account; else its row as it was.
 */
export async function setStaffDisabled(
  { database, sessions }: { database: Database; sessions: SessionCache },
  id: string,
  disabled: boolean,
  now: number,
): Promise<{ name: string; matricNumber: string; role: string } | null> {
  const [row] = await database.db
    .select({ name: users.name, matricNumber: users.matricNumber, role: users.role })
    .from(users)
    .where(and(eq(users.id, id), disableable));
  if (!row) return null;
  const [updated] = await database.writer.submit([
    statementOf(database.db.update(users).set({ disabledAt: disabled ? now : null }).where(and(eq(users.id, id), disableable))),
    ...(disabled ? [endSessionsStatement(id, now)] : []),
  ]);
  sessions.invalidate();
  return updated.rowsAffected === 1 ? row : null;
}
