/** /realtime: short-lived stream tokens (EventSource cannot send headers) and the SSE stream. */
import type { ServerResponse } from "node:http";
import { Hono } from "hono";
import { z } from "zod";
import { REALTIME_CHANNEL, messages, type Results, type TokenResponse } from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { requireUser } from "../http/auth.ts";
import { fail } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import { signToken, verifyToken } from "../security/keys.ts";
import { sseFrame } from "./hub.ts";

export const STREAM_TOKEN_TTL_MS = 60_000;

const streamQuery = z.object({
  channel: z.literal(REALTIME_CHANNEL, { error: `channel must be '${REALTIME_CHANNEL}'` }),
  token: z.string({ error: "token is required" }).min(1, { error: "token is required" }).max(1024),
});

export function realtimeRoutes(deps: Deps) {
  const { keys, clock, hub } = deps;
  // The results service hands out the same object until the results change: encode it once
  // for every subscriber that connects meanwhile (a reconnect wave after a blip).
  let lastSnapshot: { results: Results; frame: Uint8Array } | null = null;
  const snapshotFrame = (results: Results) => {
    if (lastSnapshot?.results !== results) lastSnapshot = { results, frame: sseFrame("snapshot", results) };
    return lastSnapshot.frame;
  };
  return new Hono<AppEnv>()
    .get("/token", requireUser(deps), (c) => {
      const expiresAt = clock.now() + STREAM_TOKEN_TTL_MS;
      const token = signToken(keys, { k: "stream", sub: c.var.user.id, exp: expiresAt });
      return c.json({ token, expiresAt: new Date(expiresAt).toISOString() } satisfies TokenResponse);
    })
    .get("/", validate("query", streamQuery), async (c) => {
      const { channel, token } = c.req.valid("query");
      const payload = verifyToken<{ k: "stream"; sub: string; exp: number }>(keys, token, "stream", clock.now());
      if (!payload) fail(401, messages.sessionExpired);
      return hub.open(channel, {
        signal: c.req.raw.signal,
        // Under @hono/node-server the hub writes to the Node response directly (see hub.ts).
        outgoing: (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing,
        userId: payload.sub,
        // Every (re)connect starts from the current snapshot.
        initial: async () => [snapshotFrame(await deps.results.get())],
      });
    });
}
