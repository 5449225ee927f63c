/** /auth: check-user, login, logout, profile, email and password (spec sections 4, 5, 7). */
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import {
  checkUserSchema,
  emailUpdateSchema,
  loginSchema,
  messages,
  passwordUpdateSchema,
  type LoginResponse,
} from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { users } from "../db/schema.ts";
import { clientAddress, requireUser } from "../http/auth.ts";
import { fail, tooMany } from "../http/errors.ts";
import { jsonBody } from "../http/validate.ts";
import { dummyVerify, hashSecret, verifySecret } from "../security/passwords.ts";
import { createSession, revokeOtherSessions, revokeSession } from "../services/sessions.ts";
import { findUserByMatric, toProfile } from "../services/users.ts";

export function authRoutes(deps: Deps) {
  const { throttle, clock } = deps;
  const db = deps.database.db;
  const authed = requireUser(deps);

  return new Hono<AppEnv>()
    .post("/check-user", ...jsonBody(checkUserSchema), async (c) => {
      const wait = throttle.checkUser.take(clientAddress(c, deps.config.trustProxy));
      if (wait > 0) tooMany(wait);
      const user = await findUserByMatric(db, c.req.valid("json").matricNumber);
      if (!user) fail(404, messages.userNotFound);
      return c.json({ requiresPassword: user.passwordHash !== null });
    })

    .post("/login", ...jsonBody(loginSchema), async (c) => {
      const { matricNumber, password, dateOfBirth } = c.req.valid("json");
      const address = clientAddress(c, deps.config.trustProxy);
      const wait = throttle.retryAfter(matricNumber, address);
      if (wait > 0) tooMany(wait);

      const user = await findUserByMatric(db, matricNumber);
      let ok = false;
      if (!user) {
        await dummyVerify(password ?? dateOfBirth ?? "");
      } else if (user.passwordHash) {
        if (password === undefined) fail(400, messages.passwordRequired);
        ok = await verifySecret(user.passwordHash, password);
      } else if (user.dobHash) {
        if (dateOfBirth === undefined) fail(400, messages.dobRequired);
        ok = await verifySecret(user.dobHash, dateOfBirth);
      }
      if (!user || !ok) {
        throttle.fail(matricNumber, address);
        fail(401, messages.invalidCredentials);
      }
      throttle.succeed(matricNumber);
      const session = await createSession(deps.database.writer, user.id, clock.now(), deps.config.sessionMs);
      return c.json({
        token: session.token,
        role: user.role,
        expiresAt: new Date(session.expiresAt).toISOString(),
        user: toProfile(user),
      } satisfies LoginResponse);
    })

    .post("/logout", authed, async (c) => {
      await revokeSession(db, c.var.tokenHash, clock.now());
      return c.body(null, 204);
    })

    .get("/profile", authed, (c) => {
      const u = c.var.user;
      return c.json(toProfile({ ...u, passwordHash: u.hasPassword ? "set" : null }));
    })

    .put("/email", authed, ...jsonBody(emailUpdateSchema), async (c) => {
      const { email } = c.req.valid("json");
      await db.update(users).set({ email }).where(eq(users.id, c.var.user.id));
      return c.json({ email, message: messages.updateEmailSuccess });
    })

    .put("/password", authed, ...jsonBody(passwordUpdateSchema), async (c) => {
      const { currentPassword, newPassword } = c.req.valid("json");
      const user = c.var.user;
      const address = clientAddress(c, deps.config.trustProxy);
      if (user.hasPassword) {
        if (!currentPassword) fail(400, messages.currentPasswordRequired);
        const wait = throttle.retryAfter(user.matricNumber, address);
        if (wait > 0) tooMany(wait);
        const row = (await db.select({ h: users.passwordHash }).from(users).where(eq(users.id, user.id)))[0];
        if (!row?.h || !(await verifySecret(row.h, currentPassword))) {
          throttle.fail(user.matricNumber, address);
          fail(400, messages.currentPasswordWrong);
        }
      }
      await db.update(users).set({ passwordHash: await hashSecret(newPassword) }).where(eq(users.id, user.id));
      await revokeOtherSessions(db, user.id, c.var.tokenHash, clock.now());
      return c.json({ message: messages.updatePasswordSuccess, hasPassword: true });
    });
}
