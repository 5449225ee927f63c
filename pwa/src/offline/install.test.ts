import { afterEach, describe, expect, it, vi } from "vitest";
import type { OutboxOutcome } from "./db";
import { installOffline, type OfflineRuntime } from "./install";
import { appHttpOver, memoryIndexedDb, signInAs } from "./test-support";
import { offlineText } from "./notices";

const ada = { userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada" };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

let runtime: OfflineRuntime | null = null;
afterEach(async () => {
  await runtime?.uninstall();
  runtime = null;
});

function install(fetchImpl: typeof fetch, user: { id: string | null; token: string | null } = { id: "u1", token: "tok-1" }) {
  const db = memoryIndexedDb().open();
  const outcomes: OutboxOutcome[] = [];
  const events = new EventTarget() as unknown as Window;
  const onUnauthorized = vi.fn();
  runtime = installOffline({
    http: appHttpOver(fetchImpl, user.token, user.id ?? "u1"),
    getToken: () => user.token,
    getUserId: () => user.id,
    onOutcome: (o) => outcomes.push(o),
    onUnauthorized,
    db,
    eventTarget: events,
    locks: null,
    castWaitMs: 2_000,
  });
  return { runtime, db, outcomes, events, user, onUnauthorized };
}

describe("installOffline", () => {
  it("casts through the outbox: POST /api/vote with the bearer token, Idempotency-Key and ticket", async () => {
    const fetchImpl = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body));
      return json(201, { message: "Vote cast successfully!", vote: { ...body, candidateName: "Ada" } });
    });
    const { runtime, db, outcomes } = install(fetchImpl as typeof fetch);

    const result = await runtime.queueVote({ ...ada, ballotTicket: "ticket" });

    expect(result.status).toBe("delivered");
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe("/api/vote");
    expect(init?.method).toBe("POST");
    expect(init?.headers).toMatchObject({ Authorization: "Bearer tok-1", "Idempotency-Key": result.item.key, "Content-Type": "application/json" });
    expect(JSON.parse(String(init?.body))).toEqual({ positionId: "p1", candidateId: "c1", ballotTicket: "ticket" });
    expect(outcomes.map((o) => o.status)).toEqual(["delivered"]);
    await vi.waitFor(async () => expect((await db.outcomes.get(result.item.key))?.seenAt).not.toBeNull(), { timeout: 5_000 });
  });

  it("reports 'queued' at once when the network is down, and delivers when the connection returns", async () => {
    let up = false;
    const fetchImpl = vi.fn(async () => {
      if (!up) throw new TypeError("Failed to fetch");
      return json(201, { message: "ok", vote: { positionId: "p1", candidateId: "c1", candidateName: "Ada" } });
    });
    const { runtime, db, outcomes, events } = install(fetchImpl as typeof fetch);

    const result = await runtime.queueVote(ada);
    expect(result.status).toBe("queued");
    expect(await db.marks.get(["u1", "p1"])).toMatchObject({ state: "queued" });

    up = true;
    events.dispatchEvent(new Event("online"));
    await vi.waitFor(() => expect(outcomes.map((o) => o.status)).toEqual(["delivered"]), { timeout: 5_000 });
    expect(runtime.online.getSnapshot()).toBe(true);
    expect(await db.marks.get(["u1", "p1"])).toMatchObject({ state: "voted" });
  });

  it("passes Retry-After through, and a 401 holds the vote and reports it", async () => {
    const replies = [json(503, { message: "busy" }, { "Retry-After": "7" }), json(401, { message: "expired" })];
    const fetchImpl = vi.fn(async () => replies.shift()!);
    const { runtime, db, onUnauthorized } = install(fetchImpl as typeof fetch);

    await runtime.queueVote(ada);
    const [item] = await db.outbox.toArray();
    expect(item).toMatchObject({ serverHold: true, lastError: { httpStatus: 503 } });
    expect(item!.nextAttemptAt - Date.now()).toBeGreaterThan(6_000);

    await db.outbox.update(item!.id!, { nextAttemptAt: 0 });
    await runtime.engine.kick();
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: "auth-required" });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(runtime.sync.getSnapshot()).toMatchObject({ pending: 1, authRequired: 1 });
  });

  it("never sends a vote with another voter's token; it waits for its own voter to sign in", async () => {
    const fetchImpl = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) =>
      json(201, { message: "ok", vote: { ...JSON.parse(String(init?.body)), candidateName: "Ada" } }),
    );
    const { runtime, db, user } = install(fetchImpl as typeof fetch, { id: "u1", token: null });
    const result = await runtime.queueVote(ada);
    expect(result.status).toBe("queued");

    user.id = "u2";
    user.token = "tok-2";
    signInAs("tok-2", "u2");
    await runtime.engine.kick();
    expect(fetchImpl).not.toHaveBeenCalled();

    await runtime.signedOut("u2");
    user.id = "u1";
    user.token = "tok-1";
    signInAs("tok-1", "u1");
    await runtime.signedIn("u1");
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(fetchImpl.mock.calls[0]![1]?.headers).toMatchObject({ Authorization: "Bearer tok-1" });
    expect(await db.outbox.count()).toBe(0);
  });

  it("409: asks my-votes with the token and resolves the card to the server's choice", async () => {
    const fetchImpl = vi.fn(async (url: RequestInfo | URL) =>
      String(url).endsWith("/vote/my-votes")
        ? json(200, [{ positionId: "p1", candidateId: "c2", candidateName: "Bob" }])
        : json(409, { message: "You have already voted for this position" }),
    );
    const { runtime } = install(fetchImpl as typeof fetch);
    const states = runtime.voteStates("u1");
    const stop = states.subscribe(() => undefined);
    const result = await runtime.queueVote(ada);
    expect(result).toMatchObject({ status: "already-voted", outcome: { recordedVote: { candidateName: "Bob" } } });
    await vi.waitFor(() => expect(states.getSnapshot().get("p1")).toEqual({ kind: "voted", vote: { positionId: "p1", candidateId: "c2", candidateName: "Bob" }, note: offlineText.notNeeded }), { timeout: 5_000 });
    stop();
  });

  it("outcomes settled before the UI listens are replayed to its first listener, once", async () => {
    const fetchImpl = vi.fn(async () => json(201, { message: "ok", vote: { positionId: "p1", candidateId: "c1", candidateName: "Ada" } }));
    const db = memoryIndexedDb().open();
    runtime = installOffline({ http: appHttpOver(fetchImpl as typeof fetch, "t"), getToken: () => "t", getUserId: () => "u1", db, eventTarget: null, locks: null });
    const result = await runtime.queueVote(ada);
    expect(result.status).toBe("delivered");
    expect((await db.outcomes.get(result.item.key))?.seenAt).toBeNull();

    const heard: string[] = [];
    const stop = runtime.subscribeOutcomes((o) => heard.push(o.status));
    await vi.waitFor(() => expect(heard).toEqual(["delivered"]), { timeout: 5_000 });
    await vi.waitFor(async () => expect((await db.outcomes.get(result.item.key))?.seenAt).not.toBeNull(), { timeout: 5_000 });
    stop();
    runtime.subscribeOutcomes((o) => heard.push(o.status));
    // A sign-in replays what is unseen as the first listener's does, and answers when it is done.
    await runtime.signedIn("u1");
    expect(heard).toEqual(["delivered"]);
  });

  it("logout keeps the unsent vote (and its 'Queued' card) for the next sign-in", async () => {
    const fetchImpl = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    const { runtime, db } = install(fetchImpl as typeof fetch);
    await db.cache.put({ userId: "u1", key: "myVotes", data: [], savedAt: 1 });
    await runtime.queueVote(ada);
    await runtime.signedOut("u1");
    expect(await db.cache.count()).toBe(0);
    expect(await db.outbox.count()).toBe(1);
    const states = runtime.voteStates("u1");
    const stop = states.subscribe(() => undefined);
    await vi.waitFor(() => expect(states.getSnapshot().get("p1")?.kind).toBe("queued"), { timeout: 5_000 });
    stop();
  });
});
