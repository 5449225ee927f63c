/** Authentication and role checks, applied on the server to every protected route. */
import { createMiddleware } from "hono/factory";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { canViewAdmin, canVote, canWriteAdmin, messages } from "@evoting/shared";
import type { AppEnv, AuthUser, Deps } from "../deps.ts";
import type { Session } from "../services/auth/sessions.ts";
import { fail } from "./errors.ts";

/** The token of an `Authorization: Bearer …` header, or null. */
export function tokenOfAuthorization(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1] : null;
}

/**
 * The session of a request's `Authorization` header: 401 without a live one. A polling-station
 * device's token (services/stations) passes only where `stationDevice` allows it (else 403):
 * the station routes, sign-out and the profile. Both ways a request is served call it
 * (`requireUser` below, and the fast path of http/pipeline.ts).
 */
export async function sessionOf(deps: Pick<Deps, "sessions" | "clock">, authorization: string | undefined, stationDevice = false): Promise<Session> {
  const token = tokenOfAuthorization(authorization);
  if (!token) fail(401, messages.unauthenticated);
  const session = await deps.sessions.find(token, deps.clock.now());
  if (!session) fail(401, messages.sessionExpired);
  if (session.stationSessionId && !stationDevice) fail(403, messages.stationDeviceToken);
  return session;
}

/** A live session's user on the context (`sessionOf`) and, given one, the `guard`'s check of them; or the refusal. */
export function requireUser(deps: Pick<Deps, "sessions" | "clock">, { stationDevice = false, guard }: { stationDevice?: boolean; guard?: Guard } = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const session = await sessionOf(deps, c.req.header("authorization"), stationDevice);
    guard?.(session.user);
    c.set("user", session.user);
    c.set("tokenHash", session.tokenHash);
    if (session.stationSessionId) c.set("stationSessionId", session.stationSessionId);
    await next();
  });
}

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!canWriteAdmin(c.var.user.role)) fail(403, messages.adminOnly);
  await next();
});

/** A check of the signed-in user that throws its refusal (a route definition's `guard`). */
export type Guard = (user: AuthUser) => void;

/** Voters only (staff never vote or stand): 403 with `message` for anyone else. */
export const votersOnly =
  (message: string): Guard =>
  (user) => {
    if (!canVote(user.role)) fail(403, message);
  };

/** Voters only, as middleware after `requireUser` (`votersOnly`). */
export const requireVoter = (message: string) => {
  const guard = votersOnly(message);
  return createMiddleware<AppEnv>(async (c, next) => {
    guard(c.var.user);
    await next();
  });
};

/**
 * The two writes an observer makes as a trustee of verifiable positions (a candidate's agent is
 * given an observer account): registering their own key, and their own partial decryption. The
 * routes check that the trustee is the caller's own (routes/belenios.ts).
 */
const TRUSTEE_WRITES = /\/admin\/(trustees|positions\/[^/]+\/partial-decryptions)$/;

/**
 * The admin area's one gate: admins may do everything; observers may read (GET/HEAD) and
 * make a trustee's own writes, nothing else; officers and voters get nothing. Mounted once for
 * every /admin route.
 */
export const requireAdminArea = createMiddleware<AppEnv>(async (c, next) => {
  const { role } = c.var.user;
  const reading = c.req.method === "GET" || c.req.method === "HEAD";
  const trusteeWrite = c.req.method === "POST" && TRUSTEE_WRITES.test(c.req.path);
  if (!canWriteAdmin(role) && !((reading || trusteeWrite) && canViewAdmin(role))) fail(403, messages.adminOnly);
  await next();
});

/**
 * The client's address for rate limits: the socket's, or behind `hops` trusted proxies the
 * X-Forwarded-For entry that many from the right. The leftmost entries are whatever the
 * client wrote, so taking them would let anyone pick a fresh address per request.
 */
export function clientAddress(forwardedFor: string | undefined, peer: string | undefined, hops: number): string {
  if (hops > 0) {
    const entries = (forwardedFor ?? "")
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean);
    // A shorter chain than configured means a proxy is missing: the leftmost is the best we have.
    const forwarded = entries[Math.max(0, entries.length - hops)];
    if (forwarded) return forwarded;
  }
  return peer ?? "unknown";
}

/** `clientAddress` of a Hono request. */
export function requestAddress(c: Context, hops: number): string {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    peer = "local"; // in-process requests (tests) have no socket
  }
  return clientAddress(c.req.header("x-forwarded-for"), peer, hops);
}
