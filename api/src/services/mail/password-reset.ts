/**
 * A forgotten password recovered by email (docs/mail.md). Asking queues a message with
 * a link valid PASSWORD_RESET_MINUTES, only for an account that has a password and an email;
 * the asker learns nothing either way (the route answers 202 before any of it runs). The link
 * carries the reset's id signed under the server's key; confirming it sets the new password,
 * uses up every open link of the account and ends every session, in one write.
 */
import { randomUUID } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { PASSWORD_RESET_MINUTES } from "@evoting/shared";
import type { Deps } from "../../deps.ts";
import { passwordResets, users } from "../../db/schema.ts";
import { verifyToken } from "../../security/keys.ts";
import { hashSecret } from "../../security/passwords.ts";
import { endSessionsStatement } from "../auth/sessions.ts";

type ResetDeps = Pick<Deps, "database" | "clock" | "mail" | "sessions" | "keys">;

/** Queues a reset message when the account can have one; otherwise does nothing. */
export async function requestPasswordReset(deps: ResetDeps, matricNumber: string): Promise<void> {
  const [user] = await deps.database.db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.matricNumber, matricNumber));
  if (!user?.passwordHash || !user.email || user.disabledAt !== null) return;
  const now = deps.clock.now();
  const id = randomUUID();
  await deps.database.writer.submit([
    {
      sql: "INSERT INTO password_resets (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
      args: [id, user.id, now, now + PASSWORD_RESET_MINUTES * 60_000],
    },
    {
      sql: "INSERT INTO mail_messages (user_id, kind, to_address, reset_id, next_at, created_at) VALUES (?, 'password-reset', ?, ?, ?, ?)",
      args: [user.id, user.email, id, now, now],
    },
  ]);
  deps.mail.wake();
}

/** Sets the new password when the link is good and unused; false otherwise. */
export async function confirmPasswordReset(deps: ResetDeps, token: string, newPassword: string): Promise<boolean> {
  const now = deps.clock.now();
  const payload = verifyToken<{ k: string; exp: number; id: unknown }>(deps.keys, token, "reset", now);
  if (!payload || typeof payload.id !== "string") return false;
  const [reset] = await deps.database.db
    .select({ userId: passwordResets.userId })
    .from(passwordResets)
    .where(and(eq(passwordResets.id, payload.id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)));
  if (!reset) return false;
  const hash = await hashSecret(newPassword);
  const ended = endSessionsStatement(reset.userId, now);
  // The link is used up first; the password changes only if this write used it (a second
  // confirm racing this one changes nothing), and every open link of the account goes too.
  const [used] = await deps.database.writer.submit([
    { sql: "UPDATE password_resets SET used_at = ? WHERE id = ? AND used_at IS NULL AND expires_at > ?", args: [now, payload.id, now] },
    { sql: "UPDATE users SET password_hash = ? WHERE id = ? AND changes() = 1", args: [hash, reset.userId] },
    { ...ended, sql: `${ended.sql} AND changes() = 1` },
    { sql: "UPDATE password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL", args: [now, reset.userId] },
  ]);
  deps.sessions.invalidate();
  return used.rowsAffected === 1;
}
