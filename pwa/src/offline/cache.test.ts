import { beforeEach, describe, expect, it, vi } from "vitest";
import type { MyVote, UserProfile } from "@evoting/shared";
import { session } from "../auth/session";
import { fromDevice, keep } from "./app/runtime";
import { freshness, formatClock, isOfflineError, offlineNotice, readCached } from "./cache";
import { offlineDb } from "./db";

// The runtime's `keep` and `fromDevice` are what data/queries.ts calls around every read a
// voter needs offline: a good answer is kept, a failed one answered from the device.
const votes: MyVote[] = [{ positionId: "p1", candidateId: "c1", candidateName: "Ada" }];
const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });
const voter = (id: string): UserProfile => ({ _id: id, name: id, role: "voter", matricNumber: "2021/5570101", email: null, hasPassword: false });
const signIn = (id: string) => session.signIn(`token-${id}-123456789012345678901`, voter(id));

beforeEach(async () => {
  freshness.reset();
  await offlineDb().cache.clear();
});

describe("a voter's reads on the device", () => {
  it("a good answer is kept per user with its time, and fresh", async () => {
    signIn("u1");
    await keep("myVotes", "u1", votes, 5_000);
    expect(await readCached("myVotes", "u1")).toEqual({ data: votes, fromCache: true, savedAt: 5_000 });
    expect(await readCached("myVotes", "u2")).toBeNull();
    expect(freshness.oldestCached()).toBeNull();
  });

  it("an answer that arrives after the voter signed out is not kept", async () => {
    signIn("u1");
    session.clear();
    await keep("myVotes", "u1", votes, 5_000);
    expect(await readCached("myVotes", "u1")).toBeNull();
  });

  it("a failed read is answered from the device, saying how old it is (no network, 5xx)", async () => {
    signIn("u1");
    await keep("myVotes", "u1", votes, 5_000);
    expect(await fromDevice("myVotes", "u1", new TypeError("Failed to fetch"))).toEqual(votes);
    expect(freshness.oldestCached()).toBe(5_000);
    expect(await fromDevice("myVotes", "u1", httpError(503))).toEqual(votes);
  });

  it("never answers one voter with another voter's copy", async () => {
    signIn("u1");
    await keep("myVotes", "u1", votes, 5_000);
    const failure = new TypeError("Failed to fetch");
    await expect(fromDevice("myVotes", "u2", failure)).rejects.toBe(failure);
  });

  it("does not hide real answers (401, 403, 404) behind old data", async () => {
    signIn("u1");
    await keep("myVotes", "u1", votes, 5_000);
    for (const status of [401, 403, 404]) await expect(fromDevice("myVotes", "u1", httpError(status))).rejects.toMatchObject({ status });
  });

  it("a failing IndexedDB does not break an online read", async () => {
    signIn("u1");
    vi.spyOn(offlineDb().cache, "put").mockRejectedValue(new Error("QuotaExceededError"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await expect(keep("myVotes", "u1", votes, 5_000)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
  });

  it("tells the freshness store when a screen is back on live data", async () => {
    signIn("u1");
    const results = { totalRegisteredVoters: 0, totalVotesCast: 0, results: [], generatedAt: "" };
    const listener = vi.fn();
    const unsubscribe = freshness.subscribe(listener);
    await keep("results", "u1", results, 1);
    await fromDevice("results", "u1", new TypeError("offline"));
    expect(freshness.oldestCached()).toBe(1);
    await keep("results", "u1", results, 2);
    expect(freshness.oldestCached()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
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
