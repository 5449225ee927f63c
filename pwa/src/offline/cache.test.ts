import { beforeEach, describe, expect, it, vi } from "vitest";
import type { MyVote } from "@evoting/shared";
import { freshness, formatClock, isOfflineError, offlineNotice, offlineRead, readCached, readThrough } from "./cache";
import { memoryIndexedDb } from "./test-support";

const votes: MyVote[] = [{ positionId: "p1", candidateId: "c1", candidateName: "Ada" }];
const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });

beforeEach(() => freshness.reset());

describe("readThrough", () => {
  it("network first: a good answer is returned fresh and kept per user with its time", async () => {
    const db = memoryIndexedDb().open();
    const result = await readThrough("myVotes", "u1", async () => votes, { db, now: () => 5_000 });
    expect(result).toEqual({ data: votes, fromCache: false, savedAt: 5_000 });
    expect(await readCached("myVotes", "u1", db)).toEqual({ data: votes, fromCache: true, savedAt: 5_000 });
    expect(await readCached("myVotes", "u2", db)).toBeNull();
  });

  it("falls back to the device copy when the network fails, saying how old it is", async () => {
    const db = memoryIndexedDb().open();
    await readThrough("myVotes", "u1", async () => votes, { db, now: () => 5_000 });
    const offline = await readThrough("myVotes", "u1", () => Promise.reject(new TypeError("Failed to fetch")), { db, now: () => 9_000 });
    expect(offline).toEqual({ data: votes, fromCache: true, savedAt: 5_000 });
    expect(freshness.oldestCached()).toBe(5_000);

    const busy = await readThrough("myVotes", "u1", () => Promise.reject(httpError(503)), { db });
    expect(busy.fromCache).toBe(true);
  });

  it("never answers one voter with another voter's copy", async () => {
    const db = memoryIndexedDb().open();
    await readThrough("myVotes", "u1", async () => votes, { db });
    const failure = new TypeError("Failed to fetch");
    await expect(readThrough("myVotes", "u2", () => Promise.reject(failure), { db })).rejects.toBe(failure);
  });

  it("does not hide real answers (401, 403, 404) behind old data", async () => {
    const db = memoryIndexedDb().open();
    await readThrough("myVotes", "u1", async () => votes, { db });
    for (const status of [401, 403, 404]) {
      await expect(readThrough("myVotes", "u1", () => Promise.reject(httpError(status)), { db })).rejects.toMatchObject({ status });
    }
  });

  it("a failing IndexedDB does not break an online read", async () => {
    const db = memoryIndexedDb().open();
    vi.spyOn(db.cache, "put").mockRejectedValue(new Error("QuotaExceededError"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await expect(readThrough("myVotes", "u1", async () => votes, { db })).resolves.toMatchObject({ fromCache: false });
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it("tells the freshness store when a screen is back on live data", async () => {
    const db = memoryIndexedDb().open();
    const listener = vi.fn();
    const unsubscribe = freshness.subscribe(listener);
    await readThrough("results", "u1", async () => ({ totalRegisteredVoters: 0, totalVotesCast: 0, results: [], generatedAt: "" }), { db, now: () => 1 });
    await readThrough("results", "u1", () => Promise.reject(new TypeError("offline")), { db });
    expect(freshness.oldestCached()).toBe(1);
    await readThrough("results", "u1", async () => ({ totalRegisteredVoters: 0, totalVotesCast: 0, results: [], generatedAt: "" }), { db, now: () => 2 });
    expect(freshness.oldestCached()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
  });
});

describe("offlineRead (a queryFn keeping the query's data shape)", () => {
  it("returns plain data, from the device when offline, and bypasses the store when signed out", async () => {
    const db = memoryIndexedDb().open();
    let user: string | null = "u1";
    let up = true;
    const fetcher = vi.fn(async () => {
      if (!up) throw new TypeError("Failed to fetch");
      return votes;
    });
    const queryFn = offlineRead("myVotes", fetcher, () => user, { db, now: () => 7 });
    expect(await queryFn()).toEqual(votes);
    up = false;
    expect(await queryFn()).toEqual(votes);
    expect(freshness.oldestCached()).toBe(7);
    user = null;
    await expect(queryFn()).rejects.toThrow("Failed to fetch");
    expect(await db.cache.count()).toBe(1);
  });
});

describe("offline notice", () => {
  it("shows local time as HH:MM", () => {
    const at = new Date(2025, 6, 4, 9, 5).getTime();
    expect(formatClock(at)).toBe("09:05");
    expect(offlineNotice(at)).toBe("Offline: showing data from 09:05");
  });

  it("classifies failures", () => {
    expect(isOfflineError(new TypeError("Failed to fetch"))).toBe(true);
    expect(isOfflineError(new DOMException("timed out", "TimeoutError"))).toBe(true);
    expect(isOfflineError(httpError(500))).toBe(true);
    expect(isOfflineError(httpError(429))).toBe(true);
    expect(isOfflineError(httpError(401))).toBe(false);
    expect(isOfflineError(httpError(422))).toBe(false);
  });
});
