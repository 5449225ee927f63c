/**
 * The chat room's client side, with no React in it: holds the messages, keeps a chat token
 * fresh (renewed a minute before its 15 minutes run out), keeps one EventSource open and
 * resumes it after the last change seen (`lastEventId`) whenever it drops, and sends, removes
 * and mutes through the API. Components read it through `useChatRoom` (use-chat-room.ts).
 */
import { CHAT_EVENTS, CHAT_TOKEN_RENEW_BEFORE_MS, chatMessages, type ChatMessage, type TokenResponse } from "@evoting/shared";
import { ApiRequestError, errorMessage } from "../api/client";
import { chatStreamUrl, type chatApi } from "./chat-api";
import { applyPage, applyRev, emptyChat, mergeMessages, unreadCount, type ChatState } from "./chat-state";

export type Connection = "connecting" | "live" | "reconnecting";

export interface ChatSnapshot {
  chat: ChatState;
  connection: Connection;
  mutedUntil: string | null;
  unread: number;
  /** The latest message from someone else that arrived live (for the polite announcement). */
  arrived: ChatMessage | null;
  loadingEarlier: boolean;
  error: string | null;
}

export interface ChatRoomDeps {
  api: typeof chatApi;
  /** Absent where the platform has none (tests, very old browsers): history still works. */
  EventSourceImpl?: typeof EventSource;
  selfId: string;
  now?: () => number;
  storage?: Pick<Storage, "getItem" | "setItem">;
}

const RECONNECT_MS = 3_000;
const lastReadKey = (userId: string) => `chat:lastRead:${userId}`;

export function createChatRoom({ api, EventSourceImpl, selfId, now = Date.now, storage = localStorage }: ChatRoomDeps) {
  let snapshot: ChatSnapshot = {
    chat: emptyChat,
    connection: "connecting",
    mutedUntil: null,
    unread: 0,
    arrived: null,
    loadingEarlier: false,
    error: null,
  };
  const listeners = new Set<() => void>();
  const stored = storage.getItem(lastReadKey(selfId));
  // A first visit starts with the room's history read: only what arrives from now on is new.
  let lastRead = stored === null ? null : Number(stored) || 0;
  let open = false;
  let token: { value: string; expiresAt: number } | null = null;
  let source: EventSource | null = null;
  let renewTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = true;

  const set = (patch: Partial<ChatSnapshot>) => {
    const chat = patch.chat ?? snapshot.chat;
    if ((open || lastRead === null) && chat.loaded) markRead(chat);
    snapshot = { ...snapshot, ...patch, unread: open ? 0 : unreadCount(chat.messages, lastRead ?? 0, selfId) };
    for (const l of listeners) l();
  };

  function markRead(chat: ChatState) {
    const newest = chat.messages.at(-1)?.id ?? 0;
    if (lastRead === null || newest > lastRead) {
      lastRead = newest;
      storage.setItem(lastReadKey(selfId), String(newest));
    }
  }

  const adoptToken = (t: TokenResponse) => {
    token = { value: t.token, expiresAt: Date.parse(t.expiresAt) };
    clearTimeout(renewTimer);
    // Renew ahead of expiry so a reconnect never has to present a stale token.
    const wait = Math.max(5_000, token.expiresAt - now() - CHAT_TOKEN_RENEW_BEFORE_MS);
    renewTimer = setTimeout(() => void renew(), wait);
  };

  async function renew() {
    if (stopped) return;
    try {
      adoptToken(await api.token());
    } catch {
      renewTimer = setTimeout(() => void renew(), RECONNECT_MS);
    }
  }

  async function freshToken(force: boolean): Promise<string> {
    if (force || !token || token.expiresAt - now() < CHAT_TOKEN_RENEW_BEFORE_MS) adoptToken(await api.token());
    return token!.value;
  }

  // A reset (the room emptied) makes every history page asked for before it stale.
  let generation = 0;
  let firstPage: Promise<void> | null = null;

  function loadFirstPage(): Promise<void> {
    if (firstPage) return firstPage;
    const asked = generation;
    const loading: Promise<void> = api.page().then(
      (page) => {
        if (asked === generation) set({ chat: applyPage(snapshot.chat, page, true), error: null });
      },
      (error: unknown) => {
        if (asked === generation) set({ error: errorMessage(error, chatMessages.loadFailed) });
      },
    );
    firstPage = loading;
    void loading.finally(() => {
      if (firstPage === loading) firstPage = null;
    });
    return loading;
  }

  const refreshStatus = () =>
    void api
      .status()
      .then((s) => set({ mutedUntil: s.mutedUntil }))
      .catch(() => {});

  const onChange = (event: MessageEvent<string>) => {
    try {
      const message = JSON.parse(event.data) as ChatMessage;
      const fresh = !snapshot.chat.messages.some((m) => m.id === message.id);
      const chat = applyRev(mergeMessages(snapshot.chat, [message]), message.rev);
      const arrived = fresh && !message.removed && message.userId !== selfId ? message : snapshot.arrived;
      set({ chat, arrived });
    } catch {
      // A malformed frame: the next reconnect replays from the last good rev.
    }
  };

  async function connect(forceToken: boolean) {
    if (stopped) return;
    if (!EventSourceImpl) {
      await loadFirstPage();
      return;
    }
    let value: string;
    try {
      value = await freshToken(forceToken);
    } catch {
      scheduleReconnect(false);
      return;
    }
    if (stopped) return;
    let opened = false;
    const es = new EventSourceImpl(chatStreamUrl(value, snapshot.chat.rev));
    source = es;
    es.addEventListener("open", () => {
      opened = true;
      set({ connection: "live" });
    });
    es.addEventListener(CHAT_EVENTS.ready, ((event: MessageEvent<string>) => {
      const { rev } = JSON.parse(event.data) as { rev: number };
      const first = !snapshot.chat.loaded;
      set({ chat: applyRev(snapshot.chat, rev) });
      if (first) void loadFirstPage();
    }) as EventListener);
    es.addEventListener(CHAT_EVENTS.message, onChange as EventListener);
    es.addEventListener(CHAT_EVENTS.removed, onChange as EventListener);
    es.addEventListener(CHAT_EVENTS.reset, ((event: MessageEvent<string>) => {
      // The room was emptied (a new election started), or too much was missed to replay: drop
      // every message held and start over from the newest page. Mutes may have been lifted too.
      const { rev } = JSON.parse(event.data) as { rev: number };
      generation++;
      firstPage = null;
      set({ chat: applyRev(emptyChat, rev), arrived: null, loadingEarlier: false });
      refreshStatus();
      void loadFirstPage();
    }) as EventListener);
    es.addEventListener(CHAT_EVENTS.muted, ((event: MessageEvent<string>) => {
      set({ mutedUntil: (JSON.parse(event.data) as { mutedUntil: string | null }).mutedUntil });
    }) as EventListener);
    es.addEventListener("error", () => {
      // Reconnect ourselves: the URL's token may have expired, and we resume after our last rev.
      es.close();
      if (source === es) source = null;
      scheduleReconnect(!opened);
    });
  }

  function scheduleReconnect(forceToken: boolean) {
    if (stopped) return;
    set({ connection: "reconnecting" });
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => void connect(forceToken), RECONNECT_MS + Math.random() * 1_000);
  }

  const onOnline = () => {
    if (!source && !stopped) {
      clearTimeout(retryTimer);
      void connect(false);
    }
  };

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => snapshot,

    start() {
      if (!stopped) return;
      stopped = false;
      void connect(true);
      refreshStatus();
      globalThis.addEventListener?.("online", onOnline);
    },

    stop() {
      stopped = true;
      clearTimeout(renewTimer);
      clearTimeout(retryTimer);
      source?.close();
      source = null;
      globalThis.removeEventListener?.("online", onOnline);
    },

    /** The panel opened or closed: opening reads everything. */
    setOpen(value: boolean) {
      open = value;
      set({});
    },

    async loadEarlier() {
      const before = snapshot.chat.nextBefore;
      if (before === null || snapshot.loadingEarlier) return;
      set({ loadingEarlier: true });
      const asked = generation;
      try {
        const page = await api.page(before);
        if (asked === generation) set({ chat: applyPage(snapshot.chat, page, false), loadingEarlier: false, error: null });
      } catch (error) {
        if (asked === generation) set({ loadingEarlier: false, error: errorMessage(error, chatMessages.loadFailed) });
      }
    },

    /** Resolves to an error message, or null when sent. */
    async send(text: string): Promise<string | null> {
      try {
        const message = await api.post(text);
        set({ chat: mergeMessages(snapshot.chat, [message]), error: null });
        return null;
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 403) void api.status().then((s) => set({ mutedUntil: s.mutedUntil })).catch(() => {});
        return errorMessage(error, chatMessages.sendFailed);
      }
    },

    async remove(id: number): Promise<string | null> {
      try {
        set({ chat: mergeMessages(snapshot.chat, [await api.remove(id)]) });
        return null;
      } catch (error) {
        return errorMessage(error, "Failed to remove message");
      }
    },

    async mute(userId: string, minutes: number): Promise<string | null> {
      try {
        await api.mute(userId, minutes);
        return null;
      } catch (error) {
        return errorMessage(error, "Failed to mute user");
      }
    },
  };
}

export type ChatRoom = ReturnType<typeof createChatRoom>;
