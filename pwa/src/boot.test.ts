import { afterEach, describe, expect, test, vi } from "vitest";

// The app itself is not started here: its module only records that it was imported.
const started = { count: 0 };
function loadBoot() {
  vi.doMock("./main", () => {
    started.count += 1;
    return {};
  });
  return import("./boot");
}

async function settle() {
  // The dynamic import resolves over a few microtasks and a module load.
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await vi.dynamicImportSettled();
}

/** How many times the app has started once `ms` more have passed. */
async function startsAfter(ms: number): Promise<number> {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
  return started.count;
}

describe("boot: the app runs after the first paint", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.doUnmock("./main");
    vi.resetModules();
    started.count = 0;
  });

  test("in the task after the next frame, not before", async () => {
    vi.useFakeTimers();
    let frame: FrameRequestCallback | undefined;
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => {
      frame = callback;
      return 1;
    });
    await loadBoot();
    await settle();
    expect(started.count).toBe(0);
    frame!(0);
    await settle();
    expect(started.count).toBe(0);
    expect(await startsAfter(0)).toBe(1);
    // The fallback timer does not start it a second time.
    expect(await startsAfter(200)).toBe(1);
  });

  test("in a tab that draws no frames (opened in the background), after 100 ms", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("requestAnimationFrame", () => 1);
    await loadBoot();
    expect(await startsAfter(99)).toBe(0);
    expect(await startsAfter(1)).toBe(1);
  });
});
