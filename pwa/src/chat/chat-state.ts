/**
 * The chat room as the client holds it: messages by id, merged from history pages and the
 * live stream in any order. A record with a higher `rev` wins (a removal replaces the post),
 * so replays and duplicates after a reconnect are harmless. Pure functions, no React.
 */
import type { ChatMessage } from "@evoting/shared";

export interface ChatState {
  /** Oldest first, as the panel shows them. */
  messages: ChatMessage[];
  /** Highest rev seen from the stream: where a reconnect resumes. */
  rev: number | null;
  /** Cursor for "Load earlier"; null once the start of the room is loaded. */
  nextBefore: number | null;
  /** Whether the first history page has arrived. */
  loaded: boolean;
}

export const emptyChat: ChatState = { messages: [], rev: null, nextBefore: null, loaded: false };

/** Upserts messages; returns the same state object when nothing changed. */
export function mergeMessages(state: ChatState, incoming: readonly ChatMessage[]): ChatState {
  if (incoming.length === 0) return state;
  const byId = new Map(state.messages.map((m) => [m.id, m]));
  let changed = false;
  for (const m of incoming) {
    const held = byId.get(m.id);
    if (held && held.rev >= m.rev) continue;
    byId.set(m.id, m);
    changed = true;
  }
  if (!changed) return state;
  return { ...state, messages: [...byId.values()].sort((a, b) => a.id - b.id) };
}

/** A history page (newest first) arrived; `first` is the newest page. */
export function applyPage(state: ChatState, page: { messages: ChatMessage[]; nextBefore: number | null }, first: boolean): ChatState {
  const merged = mergeMessages(state, page.messages);
  // Only the first page decides the cursor if nothing older was loaded yet; later pages move it back.
  const nextBefore = first && state.loaded ? state.nextBefore : page.nextBefore;
  return { ...merged, nextBefore, loaded: true };
}

export function applyRev(state: ChatState, rev: number): ChatState {
  return state.rev !== null && state.rev >= rev ? state : { ...state, rev };
}

/**
 * Unread: other people's messages, not removed, newer than the last one read.
 * Capped so the badge stays short.
 */
export function unreadCount(messages: readonly ChatMessage[], lastReadId: number, selfId: string | undefined, cap = 99): number {
  let n = 0;
  for (const m of messages) if (m.id > lastReadId && m.userId !== selfId && !m.removed) n++;
  return Math.min(n, cap);
}
