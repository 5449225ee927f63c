import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Results } from "@evoting/shared";
import { createApp } from "../app.ts";
import { buildDeps, closeDeps } from "../context.ts";
import { openDatabase } from "../db/client.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { ManualScheduler } from "../test/manual-scheduler.ts";
import { readSse } from "./sse-reader.ts";

const apps: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const a of apps.splice(0).reverse()) await a.close();
});

async function fresh(options: Parameters<typeof createTestApp>[0] = {}) {
  // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
  const t = await createTestApp({ ballotBatch: 1, ...options });
  apps.push(t);
  return t;
}

async function streamToken(t: Pick<TestApp, "request">, bearer: string) {
  const res = await t.request("/realtime/token", { token: bearer });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

const ballots = (r: Results) => r.results.reduce((n, p) => n + p.totalVotes, 0);

/** A voter and `n` open positions, so one voter can cast `n` votes in a burst. */
async function election(t: TestApp, n: number) {
  const admin = await t.adminToken();
  const positions: Awaited<ReturnType<TestApp["openElection"]>>[] = [];
  for (let i = 0; i < n; i++) positions.push(await t.openElection(admin, ["Ada", "Grace"], `Post ${i}`));
  const voter = await t.createVoter(admin);
  const vote = (i: number) =>
    t.request("/vote", {
      method: "POST",
      token: voter.token,
      json: { positionId: positions[i].position._id, candidateId: positions[i].candidates[0]._id },
    });
  return { admin, voter, positions, vote };
}

describe("results stream", () => {
  it("refuses a missing, forged or expired stream token", async () => {
    const t = await fresh();
    const admin = await t.adminToken();
    expect((await t.request("/realtime?channel=ballot-updates")).status).toBe(400);
    expect((await t.request("/realtime?channel=ballot-updates&token=abc.def")).status).toBe(401);
    const token = await streamToken(t, admin);
    t.clock.advance(61_000);
    expect((await t.request(`/realtime?channel=ballot-updates&token=${token}`)).status).toBe(401);
  });

  it("sends the snapshot on connect and again on reconnect", async () => {
    const t = await fresh();
    const { admin, vote } = await election(t, 1);
    expect((await vote(0)).status).toBe(201);
    const first = readSse(await t.request(`/realtime?channel=ballot-updates&token=${await streamToken(t, admin)}`));
    await first.waitFor(() => first.of("snapshot").length === 1, 3_000, "snapshot");
    expect(ballots(JSON.parse(first.of("snapshot")[0].data))).toBe(1);
    await first.close();
    const again = readSse(await t.request(`/realtime?channel=ballot-updates&token=${await streamToken(t, admin)}`));
    await again.waitFor(() => again.of("snapshot").length === 1, 3_000, "snapshot after reconnect");
    expect(ballots(JSON.parse(again.of("snapshot")[0].data))).toBe(1);
    await again.close();
  });

  it("coalesces a burst of votes into at most one new-vote per second, carrying the snapshot", async () => {
    // The coalescer's time moves only by hand: each second is a step of the test, not a wait.
    const time = new ManualScheduler();
    const t = await fresh({ config: { realtime: { scheduler: time } } });
    const { admin, vote } = await election(t, 12);
    // One broadcast at time 0 (to nobody yet, the set-up's own if one waits), so the next may
    // go no earlier than time 1000.
    t.deps.hub.resultsChanged();
    time.advance(0);
    const s = readSse(await t.request(`/realtime?channel=ballot-updates&token=${await streamToken(t, admin)}`));
    await s.waitFor(() => s.of("snapshot").length === 1);

    for (let i = 0; i < 12; i++) expect((await vote(i)).status).toBe(201);
    await expect.poll(async () => ballots(await t.deps.results.get()), { timeout: 10_000 }).toBe(12);
    // Twelve votes, one timer, nothing sent before the second is up.
    await vi.waitFor(() => expect(time.pending).toBe(1), { timeout: 5_000 });
    time.advance(999);
    expect(time.pending).toBe(1);
    expect(s.of("new-vote")).toHaveLength(0);
    time.advance(1);
    await s.waitFor(() => s.of("new-vote").length === 1, 5_000, "the burst's one broadcast");
    expect(ballots(JSON.parse(s.of("new-vote")[0].data))).toBe(12);

    // A vote right after a broadcast waits out the rest of that second, then goes alone.
    const more = await election(t, 1);
    expect((await more.vote(0)).status).toBe(201);
    await expect.poll(async () => ballots(await t.deps.results.get()), { timeout: 10_000 }).toBe(13);
    await vi.waitFor(() => expect(time.pending).toBe(1), { timeout: 5_000 });
    time.advance(999);
    expect(s.of("new-vote")).toHaveLength(1);
    time.advance(1);
    await s.waitFor(() => s.of("new-vote").length === 2, 5_000, "the next second's broadcast");
    expect(ballots(JSON.parse(s.of("new-vote")[1].data))).toBe(13);
    await s.close();
  });

  it("sends a heartbeat comment on idle streams", async () => {
    const t = await fresh({ config: { realtime: { heartbeatMs: 100 } } });
    const admin = await t.adminToken();
    const s = readSse(await t.request(`/realtime?channel=ballot-updates&token=${await streamToken(t, admin)}`));
    await s.waitFor(() => s.comments() >= 3, 2_000, "three heartbeats");
    await s.close();
  });

  it("frees the subscriber when the client goes away (cancel or abort)", async () => {
    const t = await fresh();
    const admin = await t.adminToken();
    const s = readSse(await t.request(`/realtime?channel=ballot-updates&token=${await streamToken(t, admin)}`));
    await s.waitFor(() => s.of("snapshot").length === 1);
    expect(t.deps.hub.subscriberCount("ballot-updates")).toBe(1);
    await s.close();
    // Over a socket the server hears the close a moment later.
    await s.waitFor(() => t.deps.hub.subscriberCount("ballot-updates") === 0, 1_000, "the subscriber to go");

    const abort = new AbortController();
    const res = await t.app.request(`/api/realtime?channel=ballot-updates&token=${await streamToken(t, admin)}`, {
      signal: abort.signal,
    });
    const r = readSse(res);
    await r.waitFor(() => r.of("snapshot").length === 1);
    expect(t.deps.hub.subscriberCount()).toBe(1);
    abort.abort();
    await r.waitFor(() => t.deps.hub.subscriberCount() === 0, 1_000, "the subscriber to go");
    await r.close();
  });

  it("drops a subscriber that stops reading without holding up the others", async () => {
    // In process: over loopback the kernel's socket buffers take megabytes before the server
    // sees a reader that stopped, so the buffer limit is shown where backpressure is immediate.
    const t = await fresh({ listen: false, config: { realtime: { maxBufferedBytes: 4 * 1024 } } });
    const admin = await t.adminToken();
    const token = await streamToken(t, admin);
    const reader = readSse(await t.request(`/realtime?channel=ballot-updates&token=${token}`));
    const stuck = await t.request(`/realtime?channel=ballot-updates&token=${await streamToken(t, admin)}`); // never read
    await reader.waitFor(() => reader.of("snapshot").length === 1);
    expect(t.deps.hub.subscriberCount()).toBe(2);
    const big = new TextEncoder().encode(`event: filler\ndata: ${"x".repeat(2048)}\n\n`);
    for (let i = 0; i < 10; i++) {
      t.deps.hub.broadcast("ballot-updates", big);
      // The live reader takes each frame before the next; the stuck one only piles up.
      await reader.waitFor(() => reader.of("filler").length === i + 1, 1_000, `frame ${i + 1} at the reader`);
    }
    expect(t.deps.hub.subscriberCount()).toBe(1);
    expect(t.deps.hub.stats().dropped).toBe(1);
    await reader.waitFor(() => reader.of("filler").length === 10, 1_000, "every frame at the reader");
    await reader.close();
    await stuck.body?.cancel().catch(() => {});
  });
});

describe("under @hono/node-server", () => {
  it("writes frames straight to the socket and frees the subscriber on disconnect", async () => {
    const t = await fresh({ config: { realtime: { heartbeatMs: 100 } } });
    const { admin, vote } = await election(t, 1);
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((ok) => server.once("listening", () => ok()));
    apps.push({
      close: () =>
        new Promise<void>((ok) => {
          server.close(() => ok());
          (server as Server).closeAllConnections();
        }),
    });
    const port = (server.address() as AddressInfo).port;

    const abort = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/realtime?channel=ballot-updates&token=${await streamToken(t, admin)}`, {
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("transfer-encoding")).toBeNull(); // close-delimited, no chunk framing
    const s = readSse(res);
    await s.waitFor(() => s.of("snapshot").length === 1);
    expect((await vote(0)).status).toBe(201);
    await s.waitFor(() => s.of("new-vote").some((e) => ballots(JSON.parse(e.data)) === 1), 2_000, "the vote");
    await s.waitFor(() => s.comments() >= 2, 1_000, "heartbeats");
    expect(t.deps.hub.subscriberCount()).toBe(1);
    abort.abort();
    await s.waitFor(() => t.deps.hub.subscriberCount() === 0, 2_000, "the subscriber to go");
    await s.close();
  });
});

describe("several processes on one database", () => {
  it("a vote through one process reaches the other's watchers within 2 s", async () => {
    const a = await fresh();
    const { admin, vote } = await election(a, 1);
    // A second API process: its own client, hub and caches on the same database file.
    const database = await openDatabase({ url: `file:${a.database.filePath}`, synchronous: "NORMAL" });
    const deps = buildDeps(database, a.clock, a.deps.keys);
    const b = createApp(deps);
    apps.push({
      close: async () => {
        await closeDeps(deps);
      },
    });
    const request = (path: string, init: { token?: string } = {}) =>
      b.request(`/api${path}`, { headers: init.token ? { authorization: `Bearer ${init.token}` } : {} });

    const s = readSse(await request(`/realtime?channel=ballot-updates&token=${await streamToken({ request }, admin)}`));
    await s.waitFor(() => s.of("snapshot").length === 1);
    expect(ballots(JSON.parse(s.of("snapshot")[0].data))).toBe(0);
    // B's first poll learns the current version and, with a watcher, broadcasts it: from then on
    // only a new vote moves it.
    await s.waitFor(() => s.of("new-vote").length === 1, 3_000, "B's first poll");
    expect(ballots(JSON.parse(s.of("new-vote")[0].data))).toBe(0);

    const castAt = Date.now();
    expect((await vote(0)).status).toBe(201);
    await s.waitFor(() => s.of("new-vote").some((e) => ballots(JSON.parse(e.data)) === 1), 2_000, "the vote at B");
    expect(Date.now() - castAt).toBeLessThan(2_000);

    // The chat travels the same way.
    const chatToken = ((await (await request("/vote/chat-token", { token: admin })).json()) as { token: string }).token;
    const chat = readSse(await request(`/chat/stream?token=${chatToken}`));
    await chat.waitFor(() => chat.of("ready").length === 1);
    const posted = await a.request("/chat/messages", { method: "POST", token: admin, json: { text: "Polls close at 14:00" } });
    expect(posted.status).toBe(201);
    await chat.waitFor(() => chat.of("message").length === 1, 2_000, "the message at B");
    expect(JSON.parse(chat.of("message")[0].data).text).toBe("Polls close at 14:00");
    await chat.close();
    await s.close();
  });
});
