import { describe, expect, it, vi } from "vitest";
import { queueVote } from "./outbox";
import { memoryIndexedDb } from "./test-support";
import type * as StoreModule from "./store";
import { sameVoteStates, toLocalVoteStates, watchVoteStates } from "./vote-states";

/** Every value offered to a store (told to subscribers or not), so a test sees a read arrive. */
const offered = vi.hoisted(() => ({ count: 0 }));
vi.mock("./store", async (importOriginal) => {
  const actual = await importOriginal<typeof StoreModule>();
  const createStore: typeof actual.createStore = (initial, same) => {
    const store = actual.createStore(initial, same);
    return {
      ...store,
      set(next) {
        offered.count++;
        store.set(next);
      },
    };
  };
  return { ...actual, createStore };
});

describe("vote states for the cards", () => {
  it("maps marks to the cards' statuses: queued, voted, failed with its reason", () => {
    const base = { userId: "u1", key: "k", updatedAt: 1 };
    const states = toLocalVoteStates([
      { ...base, positionId: "p1", state: "queued", candidateId: "c1", candidateName: "Ada", message: null },
      { ...base, positionId: "p2", state: "voted", candidateId: "c2", candidateName: "Bob", message: null },
      { ...base, positionId: "p3", state: "rejected", candidateId: "c3", candidateName: "Cy", message: "Voting for this position has ended" },
    ]);
    expect(states.get("p1")).toEqual({ kind: "queued", vote: { positionId: "p1", candidateId: "c1", candidateName: "Ada" } });
    expect(states.get("p2")?.kind).toBe("voted");
    expect(states.get("p3")).toEqual({ kind: "failed", vote: { positionId: "p3", candidateId: "c3", candidateName: "Cy" }, message: "Voting for this position has ended" });
  });

  it("follows IndexedDB while subscribed, for this user only", async () => {
    const db = memoryIndexedDb().open();
    const store = watchVoteStates(db, "u1");
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    await queueVote({ userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada" }, { db });
    await queueVote({ userId: "u2", positionId: "p2", candidateId: "c1", candidateName: "Ada" }, { db });
    await vi.waitFor(() => expect(store.getSnapshot().get("p1")?.kind).toBe("queued"), { timeout: 5_000 });
    expect(store.getSnapshot().has("p2")).toBe(false);
    expect(listener).toHaveBeenCalled();
    unsubscribe();
  });

  it("tells its subscribers only when the statuses change, not on a re-read that found the same", async () => {
    const db = memoryIndexedDb().open();
    const store = watchVoteStates(db, "u1");
    const empty = store.getSnapshot();
    const listener = vi.fn();
    offered.count = 0;
    const unsubscribe = store.subscribe(listener);
    // liveQuery's first answer (no marks) comes and goes without a new snapshot.
    await vi.waitFor(() => expect(offered.count).toBe(1), { timeout: 5_000 });
    expect(listener).not.toHaveBeenCalled();
    expect(store.getSnapshot()).toBe(empty);
    await queueVote({ userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada" }, { db });
    await vi.waitFor(() => expect(store.getSnapshot().get("p1")?.kind).toBe("queued"), { timeout: 5_000 });
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it("compares statuses by what they say", () => {
    const base = { userId: "u1", key: "k", updatedAt: 1, positionId: "p1", candidateId: "c1", candidateName: "Ada", message: null };
    const queued = toLocalVoteStates([{ ...base, state: "queued" }]);
    expect(sameVoteStates(queued, toLocalVoteStates([{ ...base, state: "queued", updatedAt: 2 }]))).toBe(true);
    expect(sameVoteStates(queued, toLocalVoteStates([{ ...base, state: "voted" }]))).toBe(false);
    expect(sameVoteStates(queued, toLocalVoteStates([{ ...base, state: "queued", candidateId: "c2" }]))).toBe(false);
    expect(sameVoteStates(queued, toLocalVoteStates([]))).toBe(false);
    expect(sameVoteStates(toLocalVoteStates([]), toLocalVoteStates([]))).toBe(true);
  });
});
