/** Accounts: creation, lookup, and the public profile shape. */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Role, UserProfile } from "@evoting/shared";
import type { Db } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { hashSecret } from "../security/passwords.ts";

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

export async function findUserByMatric(db: Db, matricNumber: string): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.matricNumber, matricNumber)).limit(1))[0];
}

export interface NewUser {
  name: string;
  matricNumber: string;
  role?: Role;
  password?: string;
  dateOfBirth?: string;
}

/** Inserts a user; returns null when the matriculation number is taken (unique index decides). */
export async function createUser(db: Db, input: NewUser, now: number): Promise<UserRow | null> {
  const [passwordHash, dobHash] = await Promise.all([
    input.password ? hashSecret(input.password) : null,
    input.dateOfBirth ? hashSecret(input.dateOfBirth) : null,
  ]);
  const rows = await db
    .insert(users)
    .values({
      id: randomUUID(),
      name: input.name,
      matricNumber: input.matricNumber,
      role: input.role ?? "voter",
      passwordHash,
      dobHash,
      createdAt: now,
    })
    .onConflictDoNothing({ target: users.matricNumber })
    .returning();
  return rows[0] ?? null;
}
