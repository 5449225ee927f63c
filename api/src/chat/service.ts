/**
 * The election chat room: history, posting (with mute and rate limit), removal and mutes.
 *
 * Every change takes the room's next `rev` inside its own write (SQLite serialises writers,
 * also across processes), so `rev` orders the room's history of changes: the stream resumes
 * from it (Last-Event-ID) and the hub polls its maximum to pick up other processes' writes.
 * The mute and rate-limit checks sit in the INSERT's own WHERE clause, so they hold across
 * processes and under concurrent posts from one user.
 */
import { and, desc, eq, gt, lt, max } from "drizzle-orm";
import { CHAT_RATE_LIMIT, CHAT_EVENTS, type ChatMessage, type ChatPage, type Role } from "@evoting/shared";
import type { Clock } from "../clock.ts";
import type { Database, Db } from "../db/client.ts";
import { chatMessages, chatMutes, users } from "../db/schema.ts";
import type { ChangeFeed } from "../realtime/change-feeds.ts";
import type { Hub } from "../realtime/hub.ts";
import { sseFrame } from "../realtime/sse.ts";

export const CHAT_CHANNEL = "chat";
/** A resume further back than this sends `reset` (reload history) instead of a replay. */
export const MAX_REPLAY = 500;
const FEED_BATCH = 200;

/** Messages with their author's name and role. */
const selectMessages = (db: Db) =>
  db
    .select({
      id: chatMessages.id,
      rev: chatMessages.rev,
      userId: chatMessages.userId,
      name: users.name,
      role: users.role,
      text: chatMessages.text,
      createdAt: chatMessages.createdAt,
      removedAt: chatMessages.removedAt,
      clearsRoom: chatMessages.clearsRoom,
    })
    .from(chatMessages)
    .innerJoin(users, eq(users.id, chatMessages.userId));

type MessageRow = Awaited<ReturnType<typeof selectMessages>>[number];

function toMessage(r: MessageRow): ChatMessage {
  const removed = r.removedAt !== null;
  return {
    id: r.id,
    rev: r.rev,
    userId: r.userId,
    name: r.name,
    role: (r.role === "admin" ? "admin" : "voter") satisfies Role,
    text: removed ? "" : r.text,
    createdAt: new Date(r.createdAt).toISOString(),
    removed,
  };
}

export function chatFrame(message: ChatMessage): Uint8Array {
  return sseFrame(message.removed ? CHAT_EVENTS.removed : CHAT_EVENTS.message, message, message.rev);
}

/** One numbered change of the room, as a stream sends it. */
export interface ChatChange {
  rev: number;
  frame: Uint8Array;
}

/**
 * A row's change: a message posted or removed, or (the row a new election left) the room
 * emptied, which tells every client to drop what it holds and reload the history.
 */
function toChange(r: MessageRow): ChatChange {
  const { rev } = r;
  if (r.clearsRoom) return { rev, frame: sseFrame(CHAT_EVENTS.reset, { rev }, rev) };
  return { rev, frame: chatFrame(toMessage(r)) };
}

export type PostOutcome =
  | { ok: true; message: ChatMessage }
  | { ok: false; reason: "muted"; until: number }
  | { ok: false; reason: "rate"; retryAfterMs: number };

export type MuteOutcome = { ok: true; until: number | null } | { ok: false; reason: "not-found" | "admin" };

export class ChatService {
  /** Pushes local changes out through the hub at once (other processes' arrive by polling). */
  private readonly push: () => void;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly hub: Hub,
  ) {
    this.push = hub.addFeed(this.feed());
  }

  /** The room changed in a write made elsewhere in this process (a new election emptied it): streams hear it now. */
  changed(): void {
    this.push();
  }

  async page(before: number | undefined, limit: number): Promise<ChatPage> {
    const rows = await selectMessages(this.database.db)
      .where(and(lt(chatMessages.id, before ?? Number.MAX_SAFE_INTEGER), eq(chatMessages.clearsRoom, false)))
      .orderBy(desc(chatMessages.id))
      .limit(limit + 1);
    const messages = rows.slice(0, limit).map(toMessage);
    const more = rows.length > limit;
    return { messages, nextBefore: more ? (messages.at(-1)?.id ?? null) : null };
  }

  async post(userId: string, text: string): Promise<PostOutcome> {
    const now = this.clock.now();
    const windowStart = now - CHAT_RATE_LIMIT.windowMs;
    const [inserted] = await this.database.writer.submit([
      {
        sql: `INSERT INTO chat_messages (rev, user_id, text, created_at)
              SELECT (SELECT coalesce(max(rev), 0) + 1 FROM chat_messages), ?1, ?2, ?3
               WHERE NOT EXISTS (SELECT 1 FROM chat_mutes WHERE user_id = ?1 AND until > ?3)
                 AND (SELECT count(*) FROM chat_messages WHERE user_id = ?1 AND created_at > ?4) < ?5
              RETURNING id`,
        args: [userId, text, now, windowStart, CHAT_RATE_LIMIT.max],
      },
    ]);
    const id = inserted.rows[0]?.id;
    if (id !== undefined && id !== null) {
      this.push();
      const message = await this.find(Number(id));
      if (!message) throw new Error(`chat message ${id} vanished`);
      return { ok: true, message };
    }
    const until = await this.mutedUntil(userId);
    if (until !== null) return { ok: false, reason: "muted", until };
    const [counted] = await this.database.db
      .select({ createdAt: chatMessages.createdAt })
      .from(chatMessages)
      .where(and(eq(chatMessages.userId, userId), gt(chatMessages.createdAt, windowStart)))
      .orderBy(desc(chatMessages.createdAt))
      .limit(1)
      .offset(CHAT_RATE_LIMIT.max - 1);
    // The oldest message still counting against the budget frees a slot when it leaves the window.
    const oldest = counted?.createdAt ?? now;
    return { ok: false, reason: "rate", retryAfterMs: Math.max(1_000, oldest + CHAT_RATE_LIMIT.windowMs - now) };
  }

  /** Removes a message (its text is erased). Null when there is no such message. */
  async remove(id: number, adminId: string): Promise<ChatMessage | null> {
    const now = this.clock.now();
    const [updated] = await this.database.writer.submit([
      {
        sql: `UPDATE chat_messages
                 SET rev = (SELECT max(rev) + 1 FROM chat_messages), text = '', removed_at = ?, removed_by = ?
               WHERE id = ? AND removed_at IS NULL`,
        args: [now, adminId, id],
      },
    ]);
    if (updated.rowsAffected > 0) this.push();
    return this.find(id);
  }

  async mute(userId: string, minutes: number, adminId: string): Promise<MuteOutcome> {
    const [user] = await this.database.db.select({ role: users.role }).from(users).where(eq(users.id, userId));
    if (!user) return { ok: false, reason: "not-found" };
    if (user.role === "admin") return { ok: false, reason: "admin" };
    const now = this.clock.now();
    const until = now + minutes * 60_000;
    await this.database.writer.submit([
      {
        sql: `INSERT INTO chat_mutes (user_id, until, muted_by, created_at) VALUES (?, ?, ?, ?)
              ON CONFLICT (user_id) DO UPDATE SET until = excluded.until, muted_by = excluded.muted_by, created_at = excluded.created_at`,
        args: [userId, until, adminId, now],
      },
    ]);
    this.notifyMute(userId, until);
    return { ok: true, until };
  }

  async unmute(userId: string): Promise<void> {
    await this.database.writer.submit([{ sql: "DELETE FROM chat_mutes WHERE user_id = ?", args: [userId] }]);
    this.notifyMute(userId, null);
  }

  async mutedUntil(userId: string): Promise<number | null> {
    const [mute] = await this.database.db
      .select({ until: chatMutes.until })
      .from(chatMutes)
      .where(and(eq(chatMutes.userId, userId), gt(chatMutes.until, this.clock.now())));
    return mute ? mute.until : null;
  }

  async head(): Promise<number> {
    const [row] = await this.database.db.select({ rev: max(chatMessages.rev) }).from(chatMessages);
    return row?.rev ?? 0;
  }

  /** Changes after `rev`, oldest first. */
  async after(rev: number, limit: number): Promise<ChatChange[]> {
    const rows = await selectMessages(this.database.db).where(gt(chatMessages.rev, rev)).orderBy(chatMessages.rev).limit(limit);
    return rows.map(toChange);
  }

  private async find(id: number): Promise<ChatMessage | null> {
    const [row] = await selectMessages(this.database.db).where(and(eq(chatMessages.id, id), eq(chatMessages.clearsRoom, false)));
    return row ? toMessage(row) : null;
  }

  /** Tells the user's own open streams in this process (their input updates at once). */
  private notifyMute(userId: string, until: number | null) {
    const mutedUntil = until === null ? null : new Date(until).toISOString();
    this.hub.broadcast(CHAT_CHANNEL, sseFrame(CHAT_EVENTS.muted, { mutedUntil }), userId);
  }

  private feed(): ChangeFeed {
    return {
      channel: CHAT_CHANNEL,
      head: () => this.head(),
      after: async (rev) => {
        const changes = await this.after(rev, FEED_BATCH);
        return { frames: changes.map((c) => c.frame), rev: changes.at(-1)?.rev ?? rev };
      },
    };
  }
}
