/** /realtime: short-lived stream tokens (EventSource cannot send headers) and the SSE stream. */
import { Hono } from "hono";
import { z } from "zod";
import { REALTIME_CHANNEL, canViewAdmin, messages, type Results, type TokenResponse } from "@evoting/shared";
import { eq } from "drizzle-orm";
import type { AppEnv, Deps } from "../deps.ts";
import { users } from "../db/schema.ts";
import { requireUser } from "../http/auth.ts";
import { fail } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import { checkStreamToken, issueStreamToken } from "./stream-auth.ts";
import { sseFrame, withheldFrame } from "./sse.ts";
import { nodeResponse } from "../http/node-response.ts";

export const STREAM_TOKEN_TTL_MS = 60_000;

const streamQuery = z.object({
  channel: z.literal(REALTIME_CHANNEL, { error: `channel must be '${REALTIME_CHANNEL}'` }),
  token: z.string({ error: "token is required" }).min(1, { error: "token is required" }).max(1024),
});

export function realtimeRoutes(deps: Deps) {
  const { hub } = deps;
  // The results service hands out the same object until the results change: encode it once
  // for every subscriber that connects meanwhile (a reconnect wave after a blip).
  let lastSnapshot: { results: Results; frame: Uint8Array } | null = null;
  const snapshotFrame = (results: Results) => {
    if (lastSnapshot?.results !== results) lastSnapshot = { results, frame: sseFrame("snapshot", results) };
    return lastSnapshot.frame;
  };
  return new Hono<AppEnv>()
    .get("/token", requireUser(deps), (c) =>
      c.json(issueStreamToken(deps, "stream", c.var.user.id, c.var.tokenHash, STREAM_TOKEN_TTL_MS) satisfies TokenResponse),
    )
    .get("/", validate("query", streamQuery), async (c) => {
      const { channel, token } = c.req.valid("query");
      // One stream per token, while the session that asked for it lives (stream-auth.ts).
      const access = await checkStreamToken(deps, token, "stream");
      if (!access.ok) fail(401, access.reason === "used" ? messages.streamTokenUsed : messages.sessionExpired);
      const payload = { sub: access.userId };
      const [viewer] = await deps.database.db.select({ role: users.role }).from(users).where(eq(users.id, payload.sub));
      const voter = !canViewAdmin(viewer?.role ?? "voter");
      return hub.open(channel, {
        signal: c.req.raw.signal,
        // Under @hono/node-server the hub writes to the Node response directly (see hub.ts).
        outgoing: nodeResponse(c),
        userId: payload.sub,
        session: access.session,
        voter,
        // Every (re)connect starts from the current snapshot (none while withheld from voters).
        initial: async () =>
          voter && (await deps.results.withheldFromVoters())
            ? [withheldFrame("snapshot")]
            : [snapshotFrame(await deps.results.get())],
      });
    });
}
