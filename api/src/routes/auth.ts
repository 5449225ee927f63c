/** /auth: check-user, login, logout, profile, email and password (docs/product.md, Rules, Messages and The calls). */
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import {
  DOB_PATTERN,
  isStaff,
  checkUserSchema,
  emailUpdateSchema,
  loginSchema,
  mailText,
  messages,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  passwordUpdateSchema,
  type LoginResponse,
} from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { users } from "../db/schema.ts";
import { requestAddress, requireUser } from "../http/auth.ts";
import { fail, tooMany } from "../http/errors.ts";
import type { Attempt } from "../security/throttle.ts";
import { jsonBody } from "../http/validate.ts";
import { dummyVerify, hashSecret, isKeyedDobHash, verifySecret } from "../security/passwords.ts";
import { createSession, revokeSessions, revokeStatement } from "../services/auth/sessions.ts";
import { statementOf } from "../db/writer.ts";
import { checkDateOfBirth, findUserByMatric, sessionUser, toProfile, type UserRow } from "../services/auth/users.ts";
import { auditSignIn } from "../http/audit.ts";
import { confirmPasswordReset, requestPasswordReset } from "../services/mail/password-reset.ts";

/** The one place a date of birth is checked against an account (sign-in and first password). */
const dobMatches = (deps: Deps, user: Pick<UserRow, "id" | "matricNumber" | "dobHash">, dateOfBirth: string): Promise<boolean> =>
  checkDateOfBirth(deps.database, deps.keys, user, dateOfBirth);

/** Marks the counted try failed, then answers with the error. */
async function refuse(attempt: Attempt, status: 400 | 401, message: string): Promise<never> {
  await attempt.failed();
  fail(status, message);
}

export function authRoutes(deps: Deps) {
  const { throttle, clock } = deps;
  const db = deps.database.db;
  const authed = requireUser(deps);
  // A polling-station device may sign out and read its officer's profile, nothing else here.
  const authedOrStation = requireUser(deps, { stationDevice: true });

  const takeTry = async (account: string, address: string): Promise<Attempt> => {
    const begun = await throttle.begin(account, address);
    if (!begun.ok) tooMany(begun.waitMs);
    return begun.attempt;
  };

  return new Hono<AppEnv>()
    .post("/check-user", jsonBody(checkUserSchema), async (c) => {
      const wait = throttle.checkUser.take(requestAddress(c, deps.config.trustProxy));
      if (wait > 0) tooMany(wait);
      const user = await findUserByMatric(db, c.req.valid("json").matricNumber);
      if (!user) fail(404, messages.userNotFound);
      return c.json({ requiresPassword: user.passwordHash !== null });
    })

    .post("/login", jsonBody(loginSchema), async (c) => {
      const { matricNumber, password, dateOfBirth } = c.req.valid("json");
      const address = requestAddress(c, deps.config.trustProxy);
      const mark = deps.sessions.mark;
      const user = await findUserByMatric(db, matricNumber);
      // Only argon2 work takes one of the address's hash slots; a keyed date of birth is microseconds.
      const hashes = password !== undefined || (user?.dobHash != null && !isKeyedDobHash(user.dobHash));
      const free = hashes ? throttle.hashSlot(address) : () => {};
      if (!free) tooMany(1_000);
      try {
        // Counted before the secret is checked: a burst of parallel guesses gets the free tries' worth.
        const attempt = await takeTry(matricNumber, address);
        let ok = false;
        if (!user) {
          // As long as a real check of the same kind: argon2 for a password; a date of birth is a keyed hash (microseconds).
          if (password !== undefined) await dummyVerify(password);
        } else if (user.passwordHash) {
          // A date of birth offered to a password account is a wrong answer like any other.
          if (password === undefined) return await refuse(attempt, 400, messages.passwordRequired);
          ok = await verifySecret(user.passwordHash, password);
        } else if (user.dobHash) {
          if (dateOfBirth === undefined) return await refuse(attempt, 400, messages.dobRequired);
          ok = await dobMatches(deps, user, dateOfBirth);
        }
        if (user && isStaff(user.role)) await auditSignIn(deps, c, user, ok); // staff sign-ins are audited
        if (!user || !ok) return await refuse(attempt, 401, messages.invalidCredentials);
        // Said only to someone who proved the password: a guess learns nothing from it.
        if (user.disabledAt !== null) fail(403, messages.accountDisabled);
        await attempt.succeeded();
        const session = await createSession(deps, sessionUser(user), clock.now(), deps.config.sessionMs, mark);
        return c.json({
          token: session.token,
          role: user.role,
          expiresAt: new Date(session.expiresAt).toISOString(),
          user: toProfile(user),
        } satisfies LoginResponse);
      } finally {
        free();
      }
    })

    .post("/logout", authedOrStation, async (c) => {
      await revokeSessions(deps, { tokenHash: c.var.tokenHash }, clock.now());
      // Its stream and chat tokens stop working (stream-auth.ts); its open streams here end now.
      deps.hub.endSession(c.var.tokenHash);
      return c.body(null, 204);
    })

    .get("/profile", authedOrStation, (c) => {
      const u = c.var.user;
      return c.json(toProfile({ ...u, passwordHash: u.hasPassword ? "set" : null }));
    })

    .put("/email", authed, jsonBody(emailUpdateSchema), async (c) => {
      const { email } = c.req.valid("json");
      await deps.database.writer.submit([statementOf(db.update(users).set({ email }).where(eq(users.id, c.var.user.id)))]);
      deps.sessions.invalidate(); // the session's user carries the email
      return c.json({ email, message: messages.updateEmailSuccess });
    })

    // The answer is the same whatever the account: it is given before the account is even
    // read, so neither the words nor the time tell whether it exists or has an email. Each
    // request is a try counted like a sign-in's (on its own count, so asking never locks a
    // sign-in out), per account and per address.
    .post("/password-reset", jsonBody(passwordResetRequestSchema), async (c) => {
      const { matricNumber } = c.req.valid("json");
      const attempt = await takeTry(`reset:${matricNumber}`, requestAddress(c, deps.config.trustProxy));
      void attempt
        .failed()
        .then(() => requestPasswordReset(deps, matricNumber))
        .catch((err: unknown) => deps.log.error({ err }, "password reset request failed"));
      return c.json({ message: mailText.resetRequested }, 202);
    })

    .post("/password-reset/confirm", jsonBody(passwordResetConfirmSchema), async (c) => {
      const { token, newPassword } = c.req.valid("json");
      if (!(await confirmPasswordReset(deps, token, newPassword))) fail(400, mailText.resetLinkInvalid);
      return c.json({ message: mailText.resetDone });
    })

    .put("/password", authed, jsonBody(passwordUpdateSchema), async (c) => {
      const { currentPassword, newPassword } = c.req.valid("json");
      const user = c.var.user;
      // Without a password the account proves its date of birth instead: a signed-in session
      // alone (a shared computer left open) must not be enough to take the account over.
      if (!currentPassword) fail(400, user.hasPassword ? messages.currentPasswordRequired : messages.currentDobRequired);
      // A change is a try on the account like a sign-in, and it stays counted when it succeeds.
      // Its hash slot and try come first: a flood of changes is refused before it costs a read or a hash.
      const address = requestAddress(c, deps.config.trustProxy);
      const free = throttle.hashSlot(address);
      if (!free) tooMany(1_000);
      try {
        const attempt = await takeTry(user.matricNumber, address);
        const row = (await db.select().from(users).where(eq(users.id, user.id)))[0];
        if (!row) fail(401, messages.sessionExpired);
        const ok = row.passwordHash
          ? await verifySecret(row.passwordHash, currentPassword)
          : row.dobHash !== null && DOB_PATTERN.test(currentPassword) && (await dobMatches(deps, row, currentPassword));
        if (!ok) return await refuse(attempt, 400, row.passwordHash ? messages.currentPasswordWrong : messages.currentDobWrong);
        // The new password and the end of every other session, in one write.
        await deps.database.writer.submit([
          statementOf(db.update(users).set({ passwordHash: await hashSecret(newPassword) }).where(eq(users.id, user.id))),
          revokeStatement({ userId: user.id, keepTokenHash: c.var.tokenHash }, clock.now()),
        ]);
        deps.sessions.invalidate();
      } finally {
        free();
      }
      return c.json({ message: messages.updatePasswordSuccess, hasPassword: true });
    });
}
