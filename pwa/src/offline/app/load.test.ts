import { describe, expect, test } from "vitest";
import { loadOffline, loadOfflineWhenIdle } from "./load";

describe("the offline chunk's one entry", () => {
  test("waits for the idle page, unless something needs the module now (a failed read, a vote)", async () => {
    let loaded = false;
    const whenIdle = loadOfflineWhenIdle().then(() => (loaded = true));
    // jsdom has no requestIdleCallback: the idle wait is a one-second timer after load.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loaded).toBe(false);
    const now = await loadOffline();
    await whenIdle;
    expect(loaded).toBe(true);
    expect(typeof now.getOffline).toBe("function");
    expect(await loadOfflineWhenIdle()).toBe(now);
  });
});
