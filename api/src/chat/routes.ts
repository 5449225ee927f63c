/**
 * /chat: the election's one chat room, open to every signed-in user.
 *
 *   GET    /messages?before=<id>&limit=<n>   history, newest first (bearer)
 *   POST   /messages {text}                  post, 1–500 characters, plain text (bearer)
 *   DELETE /messages/:id                     remove a message (admin)
 *   GET    /status                           the caller's mute and the room's limits (bearer)
 *   POST   /mutes {userId, minutes}          mute a user for a while (admin)
 *   DELETE /mutes/:userId                    lift a mute (admin)
 *   GET    /stream?token=<chat token>        live changes (SSE); event id = rev, resumes after
 *                                            Last-Event-ID (header, or `lastEventId` query for
 *                                            a new EventSource made with a renewed token)
 */
import { Hono } from "hono";
import { z } from "zod";
import {
  CHAT_EVENTS,
  CHAT_MAX_LENGTH,
  CHAT_MAX_PAGE_SIZE,
  CHAT_PAGE_SIZE,
  CHAT_RATE_LIMIT,
  chatMessages,
  chatMuteSchema,
  chatPostSchema,
  messages,
  type ChatMuteResponse,
  type ChatStatus,
} from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { requireAdmin, requireUser } from "../http/auth.ts";
import { fail, tooMany } from "../http/errors.ts";
import { jsonBody, validate } from "../http/validate.ts";
import { sseFrame } from "../realtime/sse.ts";
import { checkStreamToken } from "../realtime/stream-auth.ts";
import { audit } from "../http/audit.ts";
import { userTarget } from "../services/accountability/audit-log.ts";
import { CHAT_CHANNEL, MAX_REPLAY } from "./service.ts";
import { nodeResponse } from "../http/node-response.ts";

const positiveId = z.coerce.number({ error: "must be a positive whole number" }).int().positive().max(Number.MAX_SAFE_INTEGER);

const pageQuery = z.object({
  before: positiveId.optional(),
  limit: z.coerce.number().int().min(1).max(CHAT_MAX_PAGE_SIZE).default(CHAT_PAGE_SIZE),
});

const idParam = z.object({ id: positiveId });
const userParam = z.object({ userId: z.string().min(1).max(64) });

const streamQuery = z.object({
  token: z.string({ error: "token is required" }).min(1, { error: "token is required" }).max(1024),
  lastEventId: z.coerce.number().int().min(0).optional(),
});

const iso = (ms: number) => new Date(ms).toISOString();

export function chatRoutes(deps: Deps) {
  const { chat, hub } = deps;
  const signedIn = requireUser(deps);

  return new Hono<AppEnv>()
    .get("/stream", validate("query", streamQuery), async (c) => {
      const { token, lastEventId: fromQuery } = c.req.valid("query");
      // Valid while the session that asked for it lives (realtime/stream-auth.ts).
      const access = await checkStreamToken(deps, token, "chat");
      if (!access.ok) fail(401, messages.sessionExpired);
      const header = Number(c.req.header("last-event-id"));
      const lastId = Number.isSafeInteger(header) && header >= 0 ? header : fromQuery;
      return hub.open(CHAT_CHANNEL, {
        signal: c.req.raw.signal,
        outgoing: nodeResponse(c),
        userId: access.userId,
        session: access.session,
        initial: async () => {
          const head = await chat.head();
          if (lastId === undefined) return [sseFrame(CHAT_EVENTS.ready, { rev: head }, head)];
          if (lastId > head) return [sseFrame(CHAT_EVENTS.reset, { rev: head }), sseFrame(CHAT_EVENTS.ready, { rev: head }, head)];
          const missed = await chat.after(lastId, MAX_REPLAY + 1);
          if (missed.length > MAX_REPLAY) {
            return [sseFrame(CHAT_EVENTS.reset, { rev: head }), sseFrame(CHAT_EVENTS.ready, { rev: head }, head)];
          }
          const rev = Math.max(head, missed.at(-1)?.rev ?? 0);
          return [...missed.map((change) => change.frame), sseFrame(CHAT_EVENTS.ready, { rev }, rev)];
        },
      });
    })
    .use(signedIn)
    .get("/messages", validate("query", pageQuery), async (c) => {
      const { before, limit } = c.req.valid("query");
      return c.json(await chat.page(before, limit));
    })
    .post("/messages", jsonBody(chatPostSchema), async (c) => {
      const { text } = c.req.valid("json");
      const outcome = await chat.post(c.var.user.id, text);
      if (outcome.ok) return c.json(outcome.message, 201);
      if (outcome.reason === "muted") {
        const mutedUntil = iso(outcome.until);
        return c.json({ message: chatMessages.muted(mutedUntil), mutedUntil }, 403);
      }
      tooMany(outcome.retryAfterMs, chatMessages.rateLimited(Math.ceil(outcome.retryAfterMs / 1000)));
    })
    .get("/status", async (c) => {
      const until = await chat.mutedUntil(c.var.user.id);
      return c.json({
        mutedUntil: until === null ? null : iso(until),
        maxLength: CHAT_MAX_LENGTH,
        rateLimit: { ...CHAT_RATE_LIMIT },
      } satisfies ChatStatus);
    })
    .delete("/messages/:id", requireAdmin, validate("param", idParam), async (c) => {
      const removed = await chat.remove(c.req.valid("param").id, c.var.user.id);
      if (!removed) fail(404, chatMessages.messageNotFound);
      await audit(deps, c, {
        action: "chat.remove",
        target: `chat-message:${removed.id} by ${removed.name}`,
        summary: `Removed a chat message by ${removed.name}`,
      });
      return c.json(removed);
    })
    .post("/mutes", requireAdmin, jsonBody(chatMuteSchema), async (c) => {
      const { userId, minutes } = c.req.valid("json");
      const outcome = await chat.mute(userId, minutes, c.var.user.id);
      if (!outcome.ok) fail(outcome.reason === "admin" ? 400 : 404, outcome.reason === "admin" ? chatMessages.cannotMuteAdmin : messages.userNotFound);
      await audit(deps, c, { action: "chat.mute", target: await userTarget(deps.database, userId), summary: `Muted a user in the chat for ${minutes} minutes` });
      return c.json({ userId, mutedUntil: outcome.until === null ? null : iso(outcome.until) } satisfies ChatMuteResponse);
    })
    .delete("/mutes/:userId", requireAdmin, validate("param", userParam), async (c) => {
      const { userId } = c.req.valid("param");
      await chat.unmute(userId);
      await audit(deps, c, { action: "chat.unmute", target: await userTarget(deps.database, userId), summary: "Lifted a chat mute" });
      return c.json({ userId, mutedUntil: null } satisfies ChatMuteResponse);
    });
}
