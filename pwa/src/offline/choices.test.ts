import { afterEach, describe, expect, it, vi } from "vitest";
import type { OutboxOutcome } from "./db";
import { installOffline, type OfflineRuntime } from "./install";
import { appHttpOver, memoryIndexedDb } from "./test-support";

/** A queued 'No' / 'Abstain' (and Yes) goes to the server as such, and counts once. */
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

let runtime: OfflineRuntime | null = null;
afterEach(async () => {
  await runtime?.uninstall();
  runtime = null;
});

/** A server that keeps votes by Idempotency-Key, as the API does: the same key never counts twice. */
function idempotentServer() {
  const byKey = new Map<string, Response>();
  const counted: unknown[] = [];
  let up = false;
  let dropNextAnswer = false;
  const fetchImpl = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    if (!up) throw new TypeError("Failed to fetch");
    const key = (init?.headers as Record<string, string>)["Idempotency-Key"];
    const body = JSON.parse(String(init?.body)) as { positionId: string; candidateId?: string; choice?: string; candidateIds?: string[]; ranking?: string[] };
    if (!byKey.has(key)) {
      counted.push(body);
      const marks = body.ranking ?? body.candidateIds;
      const named = marks ? { candidateIds: marks, candidateNames: marks.map((id) => `name-${id}`) } : {};
      byKey.set(key, json(201, { message: "Vote cast successfully!", vote: { positionId: body.positionId, candidateId: marks?.[0] ?? body.candidateId ?? "", candidateName: "", ...(body.choice ? { choice: body.choice } : {}), ...named } }));
    }
    if (dropNextAnswer) {
      // The vote landed but its answer was lost on the way back.
      dropNextAnswer = false;
      throw new TypeError("Failed to fetch");
    }
    return byKey.get(key)!.clone();
  });
  return { fetchImpl, counted, setUp: (v: boolean) => (up = v), dropNextAnswer: () => (dropNextAnswer = true) };
}

/** Back online, the first vote's answer is lost on the way back; the voter's next kick (a reconnect) retries. */
async function backOnlineLosingOneAnswer(server: ReturnType<typeof idempotentServer>, runtime: OfflineRuntime, events: Window, outcomes: OutboxOutcome[]) {
  server.setUp(true);
  server.dropNextAnswer();
  events.dispatchEvent(new Event("online"));
  // The lost answer looks like the network failing again.
  await vi.waitFor(() => expect(server.counted).toHaveLength(1), { timeout: 5_000 });
  await runtime.engine.kick();
  await vi.waitFor(() => expect(outcomes.map((o) => o.status)).toEqual(["delivered", "delivered", "delivered"]), { timeout: 10_000 });
}

/** The position's vote was sent several times (offline, then its first answer was lost), always under one key. */
function expectOneKeyForSeveralSends(server: ReturnType<typeof idempotentServer>, positionId: string) {
  const sent = server.fetchImpl.mock.calls.filter(([, init]) => JSON.parse(String(init?.body)).positionId === positionId);
  expect(sent.length).toBeGreaterThanOrEqual(2);
  expect(new Set(sent.map(([, init]) => (init?.headers as Record<string, string>)["Idempotency-Key"])).size).toBe(1);
}

function install(fetchImpl: typeof fetch) {
  const db = memoryIndexedDb().open();
  const outcomes: OutboxOutcome[] = [];
  const events = new EventTarget() as unknown as Window;
  runtime = installOffline({
    http: appHttpOver(fetchImpl, "tok-1"),
    getToken: () => "tok-1",
    getUserId: () => "u1",
    onOutcome: (o) => outcomes.push(o),
    onUnauthorized: () => {},
    db,
    eventTarget: events,
    locks: null,
    castWaitMs: 500,
  });
  return { runtime, db, outcomes, events };
}

describe("queued Yes/No/Abstain votes", () => {
  it("replay exactly once, sent as their choice, and show as recorded", async () => {
    const server = idempotentServer();
    const { runtime, db, outcomes, events } = install(server.fetchImpl as typeof fetch);

    const no = await runtime.queueVote({ userId: "u1", positionId: "p1", candidateId: "", candidateName: "No", choice: "no" });
    const abstain = await runtime.queueVote({ userId: "u1", positionId: "p2", candidateId: "", candidateName: "Abstain", choice: "abstain" });
    const yes = await runtime.queueVote({ userId: "u1", positionId: "p3", candidateId: "c9", candidateName: "Ada" });
    expect([no.status, abstain.status, yes.status]).toEqual(["queued", "queued", "queued"]);
    expect(await db.marks.get(["u1", "p1"])).toMatchObject({ state: "queued", choice: "no" });

    await backOnlineLosingOneAnswer(server, runtime, events, outcomes);

    expect(server.counted).toEqual([
      { positionId: "p1", choice: "no" },
      { positionId: "p2", choice: "abstain" },
      { positionId: "p3", candidateId: "c9" },
    ]);
    expectOneKeyForSeveralSends(server, "p1");
    expect(await db.outbox.count()).toBe(0);
    expect(await db.marks.get(["u1", "p1"])).toMatchObject({ state: "voted", choice: "no" });
    expect(await db.marks.get(["u1", "p2"])).toMatchObject({ state: "voted", choice: "abstain" });
  });
});

describe("queued ballots of several seats, rankings and referendums", () => {
  it("go to the server as candidateIds, ranking and 'yes', once each, and keep their marks on the card", async () => {
    const server = idempotentServer();
    const { runtime, db, outcomes, events } = install(server.fetchImpl as typeof fetch);

    const multi = await runtime.queueVote({ userId: "u1", positionId: "p1", candidateId: "", candidateName: "Ada", candidateIds: ["a", "g"], candidateNames: ["Ada", "Grace"] });
    const ranked = await runtime.queueVote({ userId: "u1", positionId: "p2", candidateId: "", candidateName: "Linus", ranking: ["l", "a", "g"], candidateNames: ["Linus", "Ada", "Grace"] });
    const yes = await runtime.queueVote({ userId: "u1", positionId: "p3", candidateId: "", candidateName: "Yes", choice: "yes" });
    expect([multi.status, ranked.status, yes.status]).toEqual(["queued", "queued", "queued"]);
    // While queued the card reads the marks from this device.
    expect(await db.marks.get(["u1", "p2"])).toMatchObject({ state: "queued", candidateIds: ["l", "a", "g"], candidateNames: ["Linus", "Ada", "Grace"] });
    expect(await db.marks.get(["u1", "p3"])).toMatchObject({ state: "queued", choice: "yes" });

    await backOnlineLosingOneAnswer(server, runtime, events, outcomes);

    expect(server.counted).toEqual([
      { positionId: "p1", candidateIds: ["a", "g"] },
      { positionId: "p2", ranking: ["l", "a", "g"] },
      { positionId: "p3", choice: "yes" },
    ]);
    expectOneKeyForSeveralSends(server, "p1");
    expect(await db.marks.get(["u1", "p2"])).toMatchObject({ state: "voted", candidateIds: ["l", "a", "g"] });
    expect(await db.marks.get(["u1", "p3"])).toMatchObject({ state: "voted", choice: "yes" });
  });
});
