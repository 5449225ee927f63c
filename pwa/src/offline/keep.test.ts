import { describe, expect, test, vi } from "vitest";
import { guardQueuedVotes } from "./keep";
import { createStore } from "./store";

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setUp(storage: { persisted?: () => Promise<boolean>; persist?: () => Promise<boolean> } | null) {
  const pending = createStore(0);
  const target = new EventTarget();
  const guard = guardQueuedVotes({ pending, storage, target: target as unknown as Window });
  const leave = () => {
    const event = new Event("beforeunload", { cancelable: true });
    target.dispatchEvent(event);
    return event.defaultPrevented ? "asked" : "left";
  };
  return { pending, guard, leave };
}

describe("queued votes the browser may not keep", () => {
  test("nothing waits: no request for storage, no warning, leaving is free", async () => {
    const persist = vi.fn(async () => false);
    const { guard, leave } = setUp({ persisted: async () => false, persist });
    await flush();
    expect(persist).not.toHaveBeenCalled();
    expect(guard.atRisk.getSnapshot()).toBe(false);
    expect(leave()).toBe("left");
  });

  test("a vote waits and the browser refuses persistent storage: the voter is warned, and asked before leaving", async () => {
    const persist = vi.fn(async () => false);
    const { pending, guard, leave } = setUp({ persisted: async () => false, persist });
    pending.set(1);
    await flush();
    expect(persist).toHaveBeenCalledTimes(1);
    expect(guard.atRisk.getSnapshot()).toBe(true);
    expect(leave()).toBe("asked");

    pending.set(0); // delivered
    expect(guard.atRisk.getSnapshot()).toBe(false);
    expect(leave()).toBe("left");
    pending.set(2);
    await flush();
    expect(persist).toHaveBeenCalledTimes(1); // asked once per page
    expect(guard.atRisk.getSnapshot()).toBe(true);
  });

  test("storage granted (or already persistent): no warning, but leaving with a vote waiting still asks", async () => {
    const granted = setUp({ persisted: async () => false, persist: async () => true });
    granted.pending.set(1);
    await flush();
    expect(granted.guard.atRisk.getSnapshot()).toBe(false);
    expect(granted.leave()).toBe("asked");

    const persist = vi.fn(async () => true);
    const already = setUp({ persisted: async () => true, persist });
    already.pending.set(1);
    await flush();
    expect(persist).not.toHaveBeenCalled();
    expect(already.guard.atRisk.getSnapshot()).toBe(false);
  });

  test("a browser without the Storage API, or one whose request fails, counts as a refusal", async () => {
    const none = setUp(null);
    none.pending.set(1);
    await flush();
    expect(none.guard.atRisk.getSnapshot()).toBe(true);

    const failing = setUp({ persist: async () => Promise.reject(new Error("denied")) });
    failing.pending.set(1);
    await flush();
    expect(failing.guard.atRisk.getSnapshot()).toBe(true);
  });

  test("stop() removes the leave question", async () => {
    const { pending, guard, leave } = setUp(null);
    pending.set(1);
    guard.stop();
    expect(leave()).toBe("left");
  });
});
