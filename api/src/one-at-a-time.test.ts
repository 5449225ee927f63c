/** Work runs one piece at a time, each after the one before whatever its outcome. */
import { describe, expect, it } from "vitest";
import { OneAtATime } from "./one-at-a-time.ts";

describe("OneAtATime", () => {
  it("starts each piece of work only once the one before has settled, even when it failed", async () => {
    const queue = new OneAtATime();
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    const first = queue.run(async () => {
      events.push("first starts");
      await gate;
      events.push("first fails");
      throw new Error("refused");
    });
    const second = queue.run(async () => {
      events.push("second starts");
      return 2;
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(events).toEqual(["first starts"]);
    release();
    await expect(first).rejects.toThrow("refused");
    await expect(second).resolves.toBe(2);
    expect(events).toEqual(["first starts", "first fails", "second starts"]);
  });

  it("settles once the queued work has, and queues stay apart: two apps' never wait for each other", async () => {
    const a = new OneAtATime();
    const b = new OneAtATime();
    let release!: () => void;
    void a.run(() => new Promise<void>((ok) => (release = ok)));
    await expect(b.run(async () => "ran")).resolves.toBe("ran");
    let settled = false;
    const waiting = a.settled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    release();
    await waiting;
    expect(settled).toBe(true);
  });
});
