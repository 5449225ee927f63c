import { afterEach, describe, expect, test, vi } from "vitest";
import { nextTask } from "../../lib/page-idle";
import { loadOffline, loadOfflineWhenIdle } from "./load";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the offline chunk's one entry", () => {
  test("waits for the idle page, unless something needs the module now (a failed read, a vote)", async () => {
    // The page goes idle when the test says so.
    const idle: (() => void)[] = [];
    vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
    vi.stubGlobal("cancelIdleCallback", () => undefined);
    let loaded = false;
    const whenIdle = loadOfflineWhenIdle().then(() => (loaded = true));
    // Long enough for the module to have loaded had nothing waited: the same import, then a task.
    await import("./runtime");
    await nextTask(undefined);
    expect(idle).toHaveLength(1);
    expect(loaded).toBe(false);
    const now = await loadOffline();
    await whenIdle;
    expect(loaded).toBe(true);
    expect(typeof now.getOffline).toBe("function");
    expect(await loadOfflineWhenIdle()).toBe(now);
  });
});
