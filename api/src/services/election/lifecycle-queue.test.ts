/** Lifecycle changes run one at a time, each after the one before whatever its outcome. */
import { describe, expect, it } from "vitest";
import { LifecycleQueue } from "./declare.ts";

describe("LifecycleQueue", () => {
  it("starts each piece of work only once the one before has settled, even when it failed", async () => {
    const queue = new LifecycleQueue();
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

  it("is one per app: two apps' queues do not wait for each other", async () => {
    const a = new LifecycleQueue();
    const b = new LifecycleQueue();
    const held = a.run(() => new Promise<void>(() => {}));
    await expect(b.run(async () => "ran")).resolves.toBe("ran");
    void held;
  });
});
