/**
 * Stream and chat tokens: a results stream token opens one stream; one user holds
 * at most 5 streams per channel (the oldest is closed); a logout ends its tokens and streams.
 */
import { afterEach, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { createApp } from "../app.ts";
import { buildDeps, closeDeps } from "../context.ts";
import { openDatabase } from "../db/client.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { HUB_DEFAULTS } from "./hub.ts";
import { readSse } from "./sse-reader.ts";

let t: TestApp;
afterEach(async () => t.close());

const tokenFor = async (path: string, bearer: string) => ((await (await t.request(path, { token: bearer })).json()) as { token: string }).token;
const results = (token: string) => t.request(`/realtime?channel=ballot-updates&token=${token}`);
const chat = (token: string) => t.request(`/chat/stream?token=${token}`);

describe("stream tokens", () => {
  it("a results stream token opens one stream; a second use is refused", async () => {
    t = await createTestApp();
    const voter = await t.createVoter(await t.adminToken());
    const token = await tokenFor("/realtime/token", voter.token);
    const first = readSse(await results(token));
    await first.waitFor(() => first.of("snapshot").length === 1);
    const again = await results(token);
    expect(again.status).toBe(401);
    expect(((await again.json()) as { message: string }).message).toBe(messages.streamTokenUsed);
    await first.close();
  });

  it("a token used at one process is refused at another on the same database", async () => {
    t = await createTestApp();
    const voter = await t.createVoter(await t.adminToken());
    const token = await tokenFor("/realtime/token", voter.token);
    const first = readSse(await results(token));
    await first.waitFor(() => first.of("snapshot").length === 1);
    const database = await openDatabase({ url: `file:${t.database.filePath}`, synchronous: "NORMAL" });
    const deps = buildDeps(database, t.clock, t.deps.keys);
    try {
      const other = await createApp(deps).request(`/api/realtime?channel=ballot-updates&token=${token}`);
      expect(other.status).toBe(401);
    } finally {
      await closeDeps(deps);
    }
    await first.close();
  });

  it("one user holds at most 5 streams per channel: a sixth closes the oldest", async () => {
    t = await createTestApp();
    const voter = await t.createVoter(await t.adminToken());
    const streams: ReturnType<typeof readSse>[] = [];
    for (let i = 0; i < HUB_DEFAULTS.maxStreamsPerUser + 1; i++) {
      const s = readSse(await results(await tokenFor("/realtime/token", voter.token)));
      await s.waitFor(() => s.of("snapshot").length === 1);
      streams.push(s);
    }
    await streams[0].waitFor(() => streams[0].ended(), 2_000, "the oldest stream to close");
    expect(streams.slice(1).every((s) => !s.ended())).toBe(true);
    expect(t.deps.hub.subscriberCount("ballot-updates")).toBe(HUB_DEFAULTS.maxStreamsPerUser);

    // The chat token is reusable for its 15 minutes, but not for more than 5 streams at once.
    const chatToken = await tokenFor("/vote/chat-token", voter.token);
    const rooms: ReturnType<typeof readSse>[] = [];
    for (let i = 0; i < 8; i++) {
      const s = readSse(await chat(chatToken));
      await s.waitFor(() => s.of("ready").length === 1);
      rooms.push(s);
    }
    await rooms[2].waitFor(() => rooms.slice(0, 3).every((s) => s.ended()), 2_000, "the three oldest chat streams to close");
    expect(t.deps.hub.subscriberCount("chat")).toBe(HUB_DEFAULTS.maxStreamsPerUser);
    for (const s of [...streams, ...rooms]) await s.close();
  });

  it("stream and chat tokens stop working at logout, and the session's open streams end", async () => {
    t = await createTestApp();
    const admin = await t.adminToken();
    const voter = await t.createVoter(admin);
    const other = await t.login(voter.matricNumber, { dateOfBirth: voter.dateOfBirth });
    const unused = await tokenFor("/realtime/token", voter.token);
    const chatToken = await tokenFor("/vote/chat-token", voter.token);
    const open = readSse(await results(await tokenFor("/realtime/token", voter.token)));
    const room = readSse(await chat(chatToken));
    const elsewhere = readSse(await results(await tokenFor("/realtime/token", other.token)));
    await open.waitFor(() => open.of("snapshot").length === 1);
    await room.waitFor(() => room.of("ready").length === 1);
    await elsewhere.waitFor(() => elsewhere.of("snapshot").length === 1);

    expect((await t.request("/auth/logout", { method: "POST", token: voter.token })).status).toBe(204);
    expect((await results(unused)).status).toBe(401);
    expect((await chat(chatToken)).status).toBe(401);
    await open.waitFor(() => open.ended() && room.ended(), 2_000, "the session's streams to end");
    // The same voter's other session (another device) keeps its stream.
    expect(elsewhere.ended()).toBe(false);
    for (const s of [open, room, elsewhere]) await s.close();
  });
  it("every other path that ends a session ends its open streams too: an observer disabled, a voter's date of birth changed or password reset", async () => {
    t = await createTestApp();
    const admin = await t.adminToken();
    const observerToken = await t.createObserver(admin);
    const voter = await t.createVoter(admin);
    const reset = await t.createVoter(admin);
    const voterId = String((await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [voter.matricNumber] })).rows[0].id);
    const resetId = String((await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [reset.matricNumber] })).rows[0].id);
    const staffId = String((await t.database.client.execute("SELECT id FROM users WHERE role = 'observer'")).rows[0].id);
    const streamsOf = async (bearer: string) => {
      const open = readSse(await results(await tokenFor("/realtime/token", bearer)));
      const room = readSse(await chat(await tokenFor("/vote/chat-token", bearer)));
      await open.waitFor(() => open.of("snapshot").length === 1);
      await room.waitFor(() => room.of("ready").length === 1);
      return [open, room];
    };
    const watched = [
      { streams: await streamsOf(observerToken), end: () => t.request(`/admin/staff/${staffId}/disable`, { method: "POST", token: admin }) },
      { streams: await streamsOf(voter.token), end: () => t.request(`/admin/voters/${voterId}`, { method: "PATCH", token: admin, json: { dateOfBirth: 20011231 } }) },
      { streams: await streamsOf(reset.token), end: () => t.request(`/admin/voters/${resetId}/reset-password`, { method: "POST", token: admin }) },
    ];
    for (const { streams, end } of watched) {
      expect([200, 204]).toContain((await end()).status);
      for (const s of streams) await s.waitFor(() => s.ended(), 2_000, "the session's streams to end");
    }
    for (const { streams } of watched) for (const s of streams) await s.close();
  });
});
