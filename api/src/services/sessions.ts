/**
 * Bearer sessions: 256 random bits handed to the client, only their SHA-256 stored. Each
 * session has an absolute lifetime (SESSION_HOURS, 12 h by default) and can be revoked
 * (logout, password change). Validity is checked in the database on every request, so a
 * revocation holds across every process that shares the database.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, ne, or } from "drizzle-orm";
import { toRole } from "@evoting/shared";
import type { Database, Db } from "../db/client.ts";
import type { BatchWriter } from "../db/writer.ts";
import { sessions } from "../db/schema.ts";
import type { AuthUser } from "../deps.ts";

export const hashToken = (token: string): string => createHash("sha256").update(token).digest("base64url");

/**
 * Sign-ins go through the group-commit writer: in a rush, many sessions share one commit
 * (one fsync) instead of two synchronous commits each on the event loop (bench/rush.ts).
 */
export async function createSession(writer: BatchWriter, userId: string, now: number, lifetimeMs: number) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = now + lifetimeMs;
  await writer.submit([
    {
      sql: "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
      args: [hashToken(token), userId, now, expiresAt],
    },
    // Opportunistic clean-up of long-dead sessions of this user keeps the table small.
    { sql: "DELETE FROM sessions WHERE user_id = ? AND expires_at < ?", args: [userId, now] },
  ]);
  return { token, expiresAt };
}

export async function findSessionUser(database: Database, token: string, now: number): Promise<AuthUser | null> {
  if (token.length < 20 || token.length > 200) return null;
  // Raw SQL on purpose: every authenticated request runs this, and the query builder cost
  // more than the lookup itself (bench/: ~0.1 ms of CPU per request). A prepared statement
  // on the direct connection for a database file (db/direct.ts).
  const row = await database.get(
    `SELECT u.id, u.name, u.role, u.matric_number, u.email, u.password_hash IS NOT NULL AS has_password
            FROM sessions s JOIN users u ON u.id = s.user_id
           WHERE s.token_hash = ? AND s.expires_at > ? AND s.revoked_at IS NULL
           LIMIT 1`,
    [hashToken(token), now],
  );
  if (!row) return null;
  return {
    id: String(row.id),
    name: String(row.name),
    role: toRole(row.role),
    matricNumber: String(row.matric_number),
    email: row.email === null ? null : String(row.email),
    hasPassword: Number(row.has_password) === 1,
  };
}

export async function revokeSession(db: Db, tokenHash: string, now: number): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.tokenHash, tokenHash));
}

/** Revokes every other live session of the user (after a password change). */
export async function revokeOtherSessions(db: Db, userId: string, keepTokenHash: string, now: number) {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        ne(sessions.tokenHash, keepTokenHash),
        or(isNull(sessions.revokedAt), gt(sessions.revokedAt, now)),
      ),
    );
}
