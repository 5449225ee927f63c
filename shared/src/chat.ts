/**
 * The election chat: limits, the message shape and the user-facing sentences, shared so the
 * PWA's input and the API's validator enforce the same rules. The validators
 * themselves are in chat-schemas.ts: the PWA's chat needs only these texts and
 * `hasVisibleText`, and a zod schema built here would load zod with the signed-in shell.
 */
import type { Role } from "./types.ts";

/** Long enough for a question to the returning officer, short enough to keep the room readable. */
export const CHAT_MAX_LENGTH = 500;
/** Posting budget per user: 5 messages per 10 s stops floods without slowing a conversation. */
export const CHAT_RATE_LIMIT = { max: 5, windowMs: 10_000 } as const;
export const CHAT_PAGE_SIZE = 50;
export const CHAT_MAX_PAGE_SIZE = 100;
/** Mutes run from one minute to one week. */
export const CHAT_MAX_MUTE_MINUTES = 7 * 24 * 60;
/** The client renews its chat token this long before it expires. */
export const CHAT_TOKEN_RENEW_BEFORE_MS = 60_000;

export const chatMessages = {
  textRequired: "Type a message first",
  textTooLong: `Messages can be at most ${CHAT_MAX_LENGTH} characters`,
  removed: "Message removed by an administrator",
  messageNotFound: "Message not found",
  rateLimited: (seconds: number) =>
    `You are sending messages too quickly. Please wait ${seconds} second${seconds === 1 ? "" : "s"} before sending another.`,
  muted: (untilIso: string) => `You have been muted by an administrator until ${untilIso.slice(0, 16).replace("T", " ")} UTC.`,
  cannotMuteAdmin: "Administrators cannot be muted",
  muteMinutes: `Choose a mute length between 1 and ${CHAT_MAX_MUTE_MINUTES} minutes`,
  userRequired: "userId is required",
  offline: "You are offline. Messages can be sent again when the connection returns.",
  loadFailed: "Could not load chat messages.",
  sendFailed: "Failed to send message",
  invisibleOnly: "Messages need some visible text: spaces, invisible or direction characters alone are not sent",
} as const;

/**
 * What shows nothing on screen: whitespace, control and format characters (zero-width
 * spaces and joiners, bidi embeddings, overrides and isolates, the BOM, tag characters),
 * variation selectors, and the fillers that render blank (Hangul fillers, the braille blank,
 * the combining grapheme joiner). A message made only of these looks empty, or worse,
 * reorders the messages around it.
 */
const INVISIBLE =
  // Each entry is one code point matched on its own (combining ones included, on purpose).
  // eslint-disable-next-line no-misleading-character-class
  /[\s\p{Z}\p{Cc}\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0100}-\u{E01EF}]/gu;

/** True when the text has at least one character that shows. */
export const hasVisibleText = (text: string): boolean => text.replace(INVISIBLE, "").length > 0;

/**
 * One chat message. `rev` orders every change in the room (a post, a removal) and is the
 * stream's event id; a record with a higher `rev` replaces the one a client holds.
 */
export interface ChatMessage {
  id: number;
  rev: number;
  userId: string;
  name: string;
  role: Role;
  /** Empty once removed. */
  text: string;
  createdAt: string;
  removed: boolean;
}

export interface ChatPage {
  /** Newest first. */
  messages: ChatMessage[];
  /** Pass as `before` for the next (older) page; null when this page reaches the start. */
  nextBefore: number | null;
}

export interface ChatStatus {
  mutedUntil: string | null;
  maxLength: number;
  rateLimit: { max: number; windowMs: number };
}

export interface ChatMuteResponse {
  userId: string;
  mutedUntil: string | null;
}

/** Server-Sent Event names on the chat stream. */
export const CHAT_EVENTS = {
  ready: "ready",
  message: "message",
  removed: "message-removed",
  reset: "reset",
  muted: "muted",
} as const;
