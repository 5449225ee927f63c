import { describe, expect, test } from "vitest";
import { oneTaskEach } from "./page-idle";

/** Resolves in a task queued now: after every task queued before it. */
const taskQueuedNow = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("oneTaskEach", () => {
  test("calls the first at once and each next one in a task of its own, in order", async () => {
    const calls: string[] = [];
    const done = oneTaskEach([() => calls.push("positions"), () => calls.push("my votes"), () => calls.push("profile")]);
    expect(calls).toEqual(["positions"]);
    await Promise.resolve();
    expect(calls).toEqual(["positions"]);
    await taskQueuedNow();
    expect(calls).toEqual(["positions", "my votes"]);
    await taskQueuedNow();
    expect(calls).toEqual(["positions", "my votes", "profile"]);
    await done;
  });
});
