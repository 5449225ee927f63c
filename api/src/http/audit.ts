/** Audit entries for what the signed-in user of a request did, from that request's address. */
import type { Context } from "hono";
import type { AppEnv, AuthUser, Deps } from "../deps.ts";
import { actorOf, type AuditInput } from "../services/accountability/audit-log.ts";
import { requestAddress } from "./auth.ts";

/** Records an action by the signed-in user of this request, with the request's address. */
export function audit(deps: Pick<Deps, "auditLog" | "clock" | "config">, c: Context<AppEnv>, input: AuditInput) {
  return deps.auditLog.append({
    ...input,
    actor: actorOf(c.var.user),
    address: requestAddress(c, deps.config.trustProxy),
    at: deps.clock.now(),
  });
}

/** A staff account's sign-in, or a failed try at one (voters' sign-ins are not admin actions). */
export function auditSignIn(
  deps: Pick<Deps, "auditLog" | "clock" | "config">,
  c: Context,
  user: Pick<AuthUser, "id" | "name" | "matricNumber" | "role">,
  ok: boolean,
) {
  return deps.auditLog.append({
    action: ok ? "auth.login" : "auth.login.failed",
    target: `user:${user.id} ${user.matricNumber}`,
    summary: ok ? `Signed in as ${user.role}` : `Failed sign-in to the ${user.role} account (wrong password)`,
    actor: actorOf(user),
    address: requestAddress(c, deps.config.trustProxy),
    at: deps.clock.now(),
  });
}
