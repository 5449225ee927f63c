/** The hash queue is bounded by the wait it would mean (about a second), not by a count alone. */
import { describe, expect, it } from "vitest";
import { HashLimiter, HashQueueFull } from "./passwords.ts";

const work = (ms: number) => () => new Promise<number>((r) => setTimeout(() => r(ms), ms));

describe("hash limiter", () => {
  it("queues about maxWait of work, refuses the rest with HashQueueFull, and runs what it took", async () => {
    const limiter = new HashLimiter(1, 1_000, 100);
    // Teach it that a task takes ~20 ms: then ~5 may wait.
    for (let i = 0; i < 30; i++) await limiter.run(work(20));
    expect(limiter.limit).toBeGreaterThanOrEqual(3);
    expect(limiter.limit).toBeLessThanOrEqual(8);
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => limiter.run(work(20))));
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((o) => (o as PromiseRejectedResult).reason instanceof HashQueueFull)).toBe(true);
    expect(outcomes.filter((o) => o.status === "fulfilled").length).toBe(1 + limiter.limit);
  });

  it("never lets fewer than two per worker wait, nor more than maxQueued", async () => {
    const slow = new HashLimiter(2, 1_000, 10);
    await Promise.all([slow.run(work(50)), slow.run(work(50))]);
    expect(slow.limit).toBe(4);
    const fast = new HashLimiter(1, 7, 10_000);
    expect(fast.limit).toBe(7);
  });
});
