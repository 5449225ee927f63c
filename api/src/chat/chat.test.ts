import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHAT_MAX_LENGTH, chatMessages, type ChatMessage, type ChatPage } from "@evoting/shared";
import { readSse } from "../realtime/sse-reader.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";

let t: TestApp;
let admin: string;
let alice: { token: string; id: string };
let bob: { token: string; id: string };

async function voter() {
  const v = await t.createVoter(admin);
  const profile = (await (await t.request("/auth/profile", { token: v.token })).json()) as { _id: string };
  return { token: v.token, id: profile._id };
}

beforeEach(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  alice = await voter();
  bob = await voter();
});
afterEach(async () => t.close());

const post = (token: string, text: unknown) => t.request("/chat/messages", { method: "POST", token, json: { text } });

async function chatToken(token: string) {
  const res = await t.request("/vote/chat-token", { token });
  expect(res.status).toBe(200);
  return (await res.json()) as { token: string; expiresAt: string };
}

describe("chat token", () => {
  it("lives 15 minutes by the server's clock; the stream refuses it after", async () => {
    const issuedAt = t.clock.now();
    const { token, expiresAt } = await chatToken(alice.token);
    expect(Date.parse(expiresAt) - issuedAt).toBe(15 * 60_000);

    t.clock.advance(15 * 60_000 - 1_000);
    const fresh = await t.request(`/chat/stream?token=${token}`);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("content-type")).toContain("text/event-stream");
    await fresh.body?.cancel();

    t.clock.advance(1_000);
    expect((await t.request(`/chat/stream?token=${token}`)).status).toBe(401);
  });

  it("refuses a results stream token and a forged one", async () => {
    const stream = (await (await t.request("/realtime/token", { token: alice.token })).json()) as { token: string };
    expect((await t.request(`/chat/stream?token=${stream.token}`)).status).toBe(401);
    expect((await t.request(`/chat/stream?token=x${(await chatToken(alice.token)).token}`)).status).toBe(401);
    expect((await t.request("/chat/stream")).status).toBe(400);
  });
});

describe("posting", () => {
  it("needs a session", async () => {
    expect((await t.request("/chat/messages")).status).toBe(401);
    expect((await post("not-a-token-at-all-nope", "hi")).status).toBe(401);
  });

  it("trims, keeps text as text, and checks the length", async () => {
    const res = await post(alice.token, "  <b>Hello</b> & welcome  ");
    expect(res.status).toBe(201);
    const message = (await res.json()) as ChatMessage;
    expect(message).toMatchObject({ text: "<b>Hello</b> & welcome", userId: alice.id, name: "Voter 1", role: "voter", removed: false });

    for (const bad of ["", "   ", 42, null]) {
      const r = await post(alice.token, bad);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { message: string }).message).toBe(chatMessages.textRequired);
    }
    const long = await post(alice.token, "x".repeat(CHAT_MAX_LENGTH + 1));
    expect(long.status).toBe(400);
    expect(((await long.json()) as { message: string }).message).toBe(chatMessages.textTooLong);
    expect((await post(bob.token, "y".repeat(CHAT_MAX_LENGTH))).status).toBe(201);
    const text = await t.request("/chat/messages", { method: "POST", token: alice.token, body: "hi", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
  });

  it("refuses messages of only invisible or direction characters, and stores nothing", async () => {
    for (const bad of ["\u200B\u200C\u200D", "\u202E\u2066\u2069", "\uFEFF \u3164"]) {
      const r = await post(alice.token, bad);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { message: string }).message).toBe(chatMessages.invisibleOnly);
    }
    const page = (await (await t.request("/chat/messages", { token: alice.token })).json()) as ChatPage;
    expect(page.messages).toEqual([]);
    expect((await post(alice.token, "\u202Eok")).status).toBe(201);
  });

  it("allows 5 messages per 10 s per user, then 429 with Retry-After", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await post(alice.token, `message ${i}`)).status).toBe(201);
      t.clock.advance(1_000);
    }
    const limited = await post(alice.token, "one too many");
    expect(limited.status).toBe(429);
    // The first message (at +0 s) leaves the window at +10 s; it is now +5 s.
    expect(limited.headers.get("retry-after")).toBe("5");
    expect(((await limited.json()) as { message: string }).message).toBe(chatMessages.rateLimited(5));
    // Someone else is not held up.
    expect((await post(bob.token, "my turn")).status).toBe(201);
    t.clock.advance(5_001);
    expect((await post(alice.token, "back again")).status).toBe(201);
  });
});

describe("history", () => {
  it("pages newest first with a cursor", async () => {
    for (let i = 1; i <= 7; i++) {
      expect((await post(i % 2 ? alice.token : bob.token, `m${i}`)).status).toBe(201);
      t.clock.advance(3_000);
    }
    const first = (await (await t.request("/chat/messages?limit=3", { token: bob.token })).json()) as ChatPage;
    expect(first.messages.map((m) => m.text)).toEqual(["m7", "m6", "m5"]);
    const second = (await (await t.request(`/chat/messages?limit=3&before=${first.nextBefore}`, { token: bob.token })).json()) as ChatPage;
    expect(second.messages.map((m) => m.text)).toEqual(["m4", "m3", "m2"]);
    const last = (await (await t.request(`/chat/messages?limit=3&before=${second.nextBefore}`, { token: bob.token })).json()) as ChatPage;
    expect(last.messages.map((m) => m.text)).toEqual(["m1"]);
    expect(last.nextBefore).toBeNull();
    expect((await t.request("/chat/messages?limit=0", { token: bob.token })).status).toBe(400);
    expect((await t.request("/chat/messages?limit=101", { token: bob.token })).status).toBe(400);
    expect((await t.request("/chat/messages?before=abc", { token: bob.token })).status).toBe(400);
  });
});

describe("moderation", () => {
  it("an admin removes a message: everyone sees it removed, live and in history", async () => {
    const { token } = await chatToken(bob.token);
    const live = readSse(await t.request(`/chat/stream?token=${token}`));
    await live.waitFor(() => live.of("ready").length === 1);

    const message = (await (await post(alice.token, "something rude")).json()) as ChatMessage;
    await live.waitFor(() => live.of("message").length === 1);
    expect(live.of("message")[0].id).toBe(String(message.rev));

    expect((await t.request(`/chat/messages/${message.id}`, { method: "DELETE", token: bob.token })).status).toBe(403);
    const removed = await t.request(`/chat/messages/${message.id}`, { method: "DELETE", token: admin });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toMatchObject({ id: message.id, removed: true, text: "" });
    await live.waitFor(() => live.of("message-removed").length === 1);
    const event = JSON.parse(live.of("message-removed")[0].data) as ChatMessage;
    expect(event).toMatchObject({ id: message.id, removed: true, text: "" });
    expect(event.rev).toBeGreaterThan(message.rev);

    const page = (await (await t.request("/chat/messages", { token: bob.token })).json()) as ChatPage;
    expect(page.messages[0]).toMatchObject({ id: message.id, removed: true, text: "" });
    expect((await t.request("/chat/messages/999", { method: "DELETE", token: admin })).status).toBe(404);
    await live.close();
  });

  it("a muted user is told until when, and may post again after", async () => {
    expect((await t.request("/chat/mutes", { method: "POST", token: alice.token, json: { userId: bob.id, minutes: 5 } })).status).toBe(403);
    const muted = await t.request("/chat/mutes", { method: "POST", token: admin, json: { userId: bob.id, minutes: 30 } });
    expect(muted.status).toBe(200);
    const until = new Date(t.clock.now() + 30 * 60_000).toISOString();
    expect(await muted.json()).toEqual({ userId: bob.id, mutedUntil: until });

    const refused = await post(bob.token, "let me speak");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: chatMessages.muted(until), mutedUntil: until });
    expect(await (await t.request("/chat/status", { token: bob.token })).json()).toMatchObject({ mutedUntil: until });
    expect((await post(alice.token, "I can still talk")).status).toBe(201);

    t.clock.advance(30 * 60_000);
    expect((await post(bob.token, "back")).status).toBe(201);
    expect(await (await t.request("/chat/status", { token: bob.token })).json()).toMatchObject({ mutedUntil: null });
  });

  it("checks mute requests and can lift a mute", async () => {
    const mute = (json: unknown) => t.request("/chat/mutes", { method: "POST", token: admin, json });
    expect((await mute({ userId: bob.id, minutes: 0 })).status).toBe(400);
    expect((await mute({ userId: bob.id, minutes: 1.5 })).status).toBe(400);
    expect((await mute({ userId: bob.id })).status).toBe(400);
    expect((await mute({ userId: "nobody", minutes: 5 })).status).toBe(404);
    const adminId = ((await (await t.request("/auth/profile", { token: admin })).json()) as { _id: string })._id;
    expect((await mute({ userId: adminId, minutes: 5 })).status).toBe(400);

    expect((await mute({ userId: bob.id, minutes: 60 })).status).toBe(200);
    expect((await post(bob.token, "muted")).status).toBe(403);
    expect((await t.request(`/chat/mutes/${bob.id}`, { method: "DELETE", token: admin })).status).toBe(200);
    expect((await post(bob.token, "free")).status).toBe(201);
  });

  it("tells the muted user's open stream at once", async () => {
    const live = readSse(await t.request(`/chat/stream?token=${(await chatToken(bob.token)).token}`));
    const other = readSse(await t.request(`/chat/stream?token=${(await chatToken(alice.token)).token}`));
    await live.waitFor(() => live.of("ready").length === 1);
    await other.waitFor(() => other.of("ready").length === 1);
    await t.request("/chat/mutes", { method: "POST", token: admin, json: { userId: bob.id, minutes: 10 } });
    await live.waitFor(() => live.of("muted").length === 1);
    expect(JSON.parse(live.of("muted")[0].data).mutedUntil).toBe(new Date(t.clock.now() + 600_000).toISOString());
    expect(other.of("muted")).toHaveLength(0);
    await live.close();
    await other.close();
  });
});

describe("stream resume", () => {
  it("resends what came after Last-Event-ID, removals included", async () => {
    const a = (await (await post(alice.token, "one")).json()) as ChatMessage;
    const first = readSse(await t.request(`/chat/stream?token=${(await chatToken(bob.token)).token}`));
    await first.waitFor(() => first.of("ready").length === 1);
    const seen = Number(first.of("ready")[0].id);
    expect(seen).toBe(a.rev);
    await first.close();

    // While bob is away: a new message, and the old one is removed.
    await post(alice.token, "two");
    await t.request(`/chat/messages/${a.id}`, { method: "DELETE", token: admin });

    const token = (await chatToken(bob.token)).token;
    const resumed = readSse(await t.request(`/chat/stream?token=${token}`, { headers: { "last-event-id": String(seen) } }));
    await resumed.waitFor(() => resumed.of("ready").length === 1);
    expect(resumed.events.map((e) => e.event)).toEqual(["message", "message-removed", "ready"]);
    expect(JSON.parse(resumed.of("message")[0].data).text).toBe("two");
    expect(JSON.parse(resumed.of("message-removed")[0].data).id).toBe(a.id);
    await resumed.close();

    // The same through the query (a new EventSource after renewing the token).
    const viaQuery = readSse(await t.request(`/chat/stream?token=${token}&lastEventId=${seen}`));
    await viaQuery.waitFor(() => viaQuery.of("ready").length === 1);
    expect(viaQuery.events.map((e) => e.event)).toEqual(["message", "message-removed", "ready"]);
    await viaQuery.close();
  });
});

describe("a new election", () => {
  it("empties the room for every connected client: a reset, then only the new election's messages", async () => {
    const live = readSse(await t.request(`/chat/stream?token=${(await chatToken(bob.token)).token}`));
    await live.waitFor(() => live.of("ready").length === 1);
    await post(alice.token, "first election, first word");
    const last = (await (await post(alice.token, "first election, last word")).json()) as ChatMessage;
    await live.waitFor(() => live.of("message").length === 2);

    const next = { title: "By-Election", subtitle: "", startTime: new Date(t.clock.now()).toISOString(), endTime: new Date(t.clock.now() + 3_600_000).toISOString() };
    expect((await t.request("/admin/elections", { method: "POST", token: admin, json: next })).status).toBe(201);
    // Told at once that the room was emptied, not that one message was removed.
    await live.waitFor(() => live.of("reset").length === 1);
    expect(live.of("message-removed")).toEqual([]);
    const reset = live.of("reset")[0];
    expect(Number(reset.id)).toBeGreaterThan(last.rev);

    const fresh = (await (await post(bob.token, "second election")).json()) as ChatMessage;
    await live.waitFor(() => live.of("message").length === 3);
    // The history holds the new election's messages only: nothing of the old room, not even a removed one.
    const page = (await (await t.request("/chat/messages", { token: alice.token })).json()) as ChatPage;
    expect(page.messages.map((m) => m.text)).toEqual(["second election"]);
    // The row kept to hold the room's change number is not a message anyone can act on.
    expect((await t.request(`/chat/messages/${last.id}`, { method: "DELETE", token: admin })).status).toBe(404);
    await live.close();

    // A client that was away resumes into the reset too.
    const resumed = readSse(
      await t.request(`/chat/stream?token=${(await chatToken(alice.token)).token}`, { headers: { "last-event-id": String(last.rev) } }),
    );
    await resumed.waitFor(() => resumed.of("ready").length === 1);
    expect(resumed.events.map((e) => e.event)).toEqual(["reset", "message", "ready"]);
    expect(JSON.parse(resumed.of("message")[0].data).id).toBe(fresh.id);
    await resumed.close();
  });
});
