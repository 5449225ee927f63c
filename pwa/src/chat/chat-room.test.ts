import { describe, expect, it, vi } from "vitest";
import type { ChatMessage, ChatPage, ChatStatus } from "@evoting/shared";
import { ApiRequestError } from "../api/client";
import type { chatApi } from "./chat-api";
import { createChatRoom } from "./chat-room";
import { applyPage, emptyChat, mergeMessages, unreadCount } from "./chat-state";

const msg = (id: number, rev = id, patch: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  rev,
  userId: "u-other",
  name: "Ada",
  role: "voter",
  text: `m${id}`,
  createdAt: new Date(1_700_000_000_000 + id * 1000).toISOString(),
  removed: false,
  ...patch,
});

class FakeEventSource {
  static all: FakeEventSource[] = [];
  listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  closed = false;
  constructor(public url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data?: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

function fakeApi(pages: ChatPage[] = [{ messages: [], nextBefore: null }]) {
  let n = 0;
  return {
    token: vi.fn(async () => ({ token: `t${++n}`, expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() })),
    page: vi.fn(async () => pages.shift() ?? { messages: [], nextBefore: null }),
    post: vi.fn(async (text: string) => msg(100, 100, { text, userId: "me", name: "Me" })),
    remove: vi.fn(async (id: number) => msg(id, 200, { removed: true, text: "" })),
    status: vi.fn(async (): Promise<ChatStatus> => ({ mutedUntil: null, maxLength: 500, rateLimit: { max: 5, windowMs: 10_000 } })),
    mute: vi.fn(async (userId: string) => ({ userId, mutedUntil: new Date().toISOString() })),
    unmute: vi.fn(async (userId: string) => ({ userId, mutedUntil: null })),
  } satisfies typeof chatApi;
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("chat state", () => {
  it("merges by id and lets the higher rev win, in any order", () => {
    let s = mergeMessages(emptyChat, [msg(2), msg(1)]);
    expect(s.messages.map((m) => m.id)).toEqual([1, 2]);
    s = mergeMessages(s, [msg(1, 5, { removed: true, text: "" })]);
    expect(s.messages[0].removed).toBe(true);
    const same = mergeMessages(s, [msg(1, 1)]); // an old replay does not undo the removal
    expect(same).toBe(s);
  });

  it("keeps the older-page cursor when the newest page arrives again", () => {
    let s = applyPage(emptyChat, { messages: [msg(3), msg(2)], nextBefore: 2 }, true);
    s = applyPage(s, { messages: [msg(1)], nextBefore: null }, false);
    expect(s.nextBefore).toBeNull();
    s = applyPage(s, { messages: [msg(4), msg(3)], nextBefore: 3 }, true);
    expect(s.nextBefore).toBeNull();
    expect(s.messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it("counts other people's live messages as unread", () => {
    expect(unreadCount([msg(1), msg(2, 2, { userId: "me" }), msg(3, 3, { removed: true }), msg(4)], 1, "me")).toBe(1);
  });
});

describe("chat room", () => {
  it("loads history on ready, applies live changes, and resumes after the last rev with a new token", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    FakeEventSource.all = [];
    const api = fakeApi([{ messages: [msg(2), msg(1)], nextBefore: null }]);
    const storage = new Map<string, string>();
    const room = createChatRoom({
      api,
      EventSourceImpl: FakeEventSource as unknown as typeof EventSource,
      selfId: "me",
      storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
    });
    room.start();
    await vi.advanceTimersByTimeAsync(0);
    const first = FakeEventSource.all[0];
    expect(first.url).toBe("/api/chat/stream?token=t1");
    first.emit("open");
    first.emit("ready", { rev: 2 });
    await vi.advanceTimersByTimeAsync(0);
    expect(room.get().chat.messages.map((m) => m.text)).toEqual(["m1", "m2"]);
    expect(room.get().unread).toBe(0); // a first visit starts with history read

    first.emit("message", msg(3));
    expect(room.get().unread).toBe(1);
    expect(room.get().arrived?.id).toBe(3);
    first.emit("message-removed", msg(3, 4, { removed: true, text: "" }));
    expect(room.get().unread).toBe(0);
    expect(room.get().chat.rev).toBe(4);

    // The connection drops: a reconnect resumes after rev 4.
    first.emit("error");
    expect(first.closed).toBe(true);
    expect(room.get().connection).toBe("reconnecting");
    await vi.advanceTimersByTimeAsync(4_100);
    const second = FakeEventSource.all[1];
    expect(second.url).toContain("lastEventId=4");

    // The token is renewed a minute before its 15 minutes run out.
    const tokensBefore = api.token.mock.calls.length;
    await vi.advanceTimersByTimeAsync(14 * 60_000 + 1_000);
    expect(api.token.mock.calls.length).toBe(tokensBefore + 1);
    room.stop();
  });

  it("drops every message held when the room is emptied (a new election), without a reload, and ignores history asked for before", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    FakeEventSource.all = [];
    const api = fakeApi([{ messages: [msg(2), msg(1)], nextBefore: 1 }]);
    const room = createChatRoom({ api, EventSourceImpl: FakeEventSource as unknown as typeof EventSource, selfId: "me", storage: { getItem: () => null, setItem: () => {} } });
    room.start();
    await vi.advanceTimersByTimeAsync(0);
    const es = FakeEventSource.all[0];
    es.emit("open");
    es.emit("ready", { rev: 2 });
    await vi.advanceTimersByTimeAsync(0);
    es.emit("message", msg(3));
    expect(room.get().chat.messages.map((m) => m.text)).toEqual(["m1", "m2", "m3"]);

    // A history page asked for before the clear answers with the old room after it.
    let answerStale!: (page: ChatPage) => void;
    api.page.mockImplementationOnce(() => new Promise((resolve) => (answerStale = resolve)));
    void room.loadEarlier();
    api.status.mockResolvedValueOnce({ mutedUntil: null, maxLength: 500, rateLimit: { max: 5, windowMs: 10_000 } });
    api.page.mockResolvedValueOnce({ messages: [], nextBefore: null });
    const statusCalls = api.status.mock.calls.length;
    es.emit("reset", { rev: 5 });
    expect(room.get().chat.messages).toEqual([]);
    expect(room.get().chat.rev).toBe(5);
    await vi.advanceTimersByTimeAsync(0);
    expect(room.get().chat.loaded).toBe(true);
    expect(api.status.mock.calls.length).toBe(statusCalls + 1); // the clear lifted every mute
    es.emit("message", msg(6));
    answerStale({ messages: [msg(1)], nextBefore: null });
    await vi.advanceTimersByTimeAsync(0);
    expect(room.get().chat.messages.map((m) => m.text)).toEqual(["m6"]);
    expect(FakeEventSource.all).toHaveLength(1); // the same stream, no reload, no reconnect
    room.stop();
    vi.useRealTimers();
  });

  it("reports a refused message and learns about a mute", async () => {
    const api = fakeApi();
    api.post.mockRejectedValueOnce(new ApiRequestError(403, "You have been muted by an administrator until 2026-03-02 09:30 UTC.", true));
    api.status.mockResolvedValueOnce({ mutedUntil: null, maxLength: 500, rateLimit: { max: 5, windowMs: 10_000 } });
    api.status.mockResolvedValueOnce({ mutedUntil: "2026-03-02T09:30:00.000Z", maxLength: 500, rateLimit: { max: 5, windowMs: 10_000 } });
    const room = createChatRoom({ api, selfId: "me", storage: { getItem: () => null, setItem: () => {} } });
    room.start();
    await flush();
    expect(await room.send("hello")).toContain("muted");
    await flush();
    expect(room.get().mutedUntil).toBe("2026-03-02T09:30:00.000Z");
    expect(await room.send("hello again")).toBeNull();
    expect(room.get().chat.messages.at(-1)?.text).toBe("hello again");
    room.stop();
  });
});
