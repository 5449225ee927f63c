/**
 * Tokens that open an event stream (EventSource cannot send a bearer header, so the stream
 * takes a short-lived signed token in its URL instead):
 * - each carries the session it was issued under (the token hash, which is no credential:
 *   only its preimage signs in), and a stream opens only while that session is live, so a
 *   logout (or a password change, an admin reset) ends them too;
 * - a results stream token opens ONE stream: its id is recorded on first use (in the
 *   database, so every process agrees) until it would have expired anyway. A chat token is
 *   reused by EventSource's own reconnects for its 15 minutes and is bound by the session
 *   and the hub's per-user cap instead.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { sessions } from "../db/schema.ts";
import { signToken, verifyToken } from "../security/keys.ts";

type Kind = "stream" | "chat";

interface Claims {
  k: Kind;
  sub: string;
  exp: number;
  /** The issuing session's token hash. */
  s: string;
  /** One-time id (results stream tokens). */
  jti?: string;
}

export function issueStreamToken(deps: Deps, kind: Kind, userId: string, session: string, ttlMs: number) {
  const exp = deps.clock.now() + ttlMs;
  const claims: Claims = { k: kind, sub: userId, exp, s: session };
  if (kind === "stream") claims.jti = randomBytes(16).toString("base64url");
  return { token: signToken(deps.keys, { ...claims }), expiresAt: new Date(exp).toISOString() };
}

export type StreamAccess = { ok: true; userId: string; session: string } | { ok: false; reason: "invalid" | "used" };

export async function checkStreamToken(deps: Deps, token: string, kind: Kind): Promise<StreamAccess> {
  const now = deps.clock.now();
  const claims = verifyToken<Claims>(deps.keys, token, kind, now);
  if (!claims || typeof claims.s !== "string" || typeof claims.sub !== "string") return { ok: false, reason: "invalid" };
  const [live] = await deps.database.db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, claims.s), eq(sessions.userId, claims.sub), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  if (!live) return { ok: false, reason: "invalid" };
  if (kind === "stream") {
    if (typeof claims.jti !== "string") return { ok: false, reason: "invalid" };
    const [claimed] = await deps.database.writer.submit(
      [{ sql: "INSERT INTO used_stream_tokens (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", args: [claims.jti, claims.exp] }],
      // Ids past their token's expiry can never be presented again: forget them.
      { last: [{ sql: "DELETE FROM used_stream_tokens WHERE expires_at <= ?", args: [now] }] },
    );
    if (claimed.rowsAffected !== 1) return { ok: false, reason: "used" };
  }
  return { ok: true, userId: claims.sub, session: claims.s };
}

/**
 * Ends the open streams of every session that is no longer live: revoked (logout, a password
 * reset, a new date of birth, the roll replaced), expired, or its account disabled. Run after
 * every write that ends sessions (the session cache's invalidation), so no path that ends a
 * session leaves a stream delivering results or chat to it.
 */
export async function endStreamsOfEndedSessions(deps: Pick<Deps, "database" | "hub">, now: number): Promise<void> {
  const open = deps.hub.openSessions();
  if (open.length === 0) return;
  // SQL: json_each over the open sessions, which drizzle has no builder for.
  const rs = await deps.database.client.execute({
    sql: `SELECT s.token_hash FROM sessions s JOIN users u ON u.id = s.user_id
           WHERE s.token_hash IN (SELECT value FROM json_each(?)) AND s.revoked_at IS NULL AND s.expires_at > ? AND u.disabled_at IS NULL`,
    args: [JSON.stringify(open), now],
  });
  const live = new Set(rs.rows.map((r) => String(r.token_hash)));
  for (const session of open) if (!live.has(session)) deps.hub.endSession(session);
}
