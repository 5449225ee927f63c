import { afterEach, describe, expect, test, vi } from "vitest";

// Neither React nor the app is run here: their modules only record that they were imported.
const loaded = { react: 0, app: 0 };
function loadBoot() {
  vi.doMock("react-dom/client", () => {
    loaded.react += 1;
    return {};
  });
  vi.doMock("./main", () => {
    loaded.app += 1;
    return {};
  });
  return import("./boot");
}

/** Fake timers, and a next frame that is drawn when the test says so. */
function holdFrames() {
  vi.useFakeTimers();
  let callback: FrameRequestCallback | undefined;
  vi.stubGlobal("requestAnimationFrame", (next: FrameRequestCallback) => {
    callback = next;
    return 1;
  });
  return { draw: () => callback!(0) };
}

async function settle() {
  // The dynamic import resolves over a few microtasks and a module load.
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await vi.dynamicImportSettled();
}

/** What has been imported once `ms` more have passed. */
async function loadedAfter(ms: number): Promise<typeof loaded> {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
  return { ...loaded };
}

/** The app's import, which waits for a timer of its own after React's has resolved. */
async function appAfterReact(): Promise<typeof loaded> {
  expect(loaded).toEqual({ react: 1, app: 0 });
  // A timer set while timers run waits at least 1 ms under the fake clock.
  for (let task = 0; task < 5 && loaded.app === 0; task++) await loadedAfter(1);
  return { ...loaded };
}

describe("boot: the app runs after the first paint", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.doUnmock("react-dom/client");
    vi.doUnmock("./main");
    vi.resetModules();
    loaded.react = 0;
    loaded.app = 0;
    document.head.innerHTML = "";
  });

  test("React in the task after the next frame, the app in the task after that", async () => {
    const frame = holdFrames();
    await loadBoot();
    await settle();
    expect(loaded).toEqual({ react: 0, app: 0 });
    frame.draw();
    await settle();
    expect(loaded).toEqual({ react: 0, app: 0 });
    expect(await loadedAfter(0)).toEqual({ react: 1, app: 0 });
    expect(await appAfterReact()).toEqual({ react: 1, app: 1 });
    // The fallback timer does not start it a second time.
    expect(await loadedAfter(200)).toEqual({ react: 1, app: 1 });
  });

  test("in a tab that draws no frames (opened in the background), after 100 ms", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("requestAnimationFrame", () => 1);
    await loadBoot();
    expect(await loadedAfter(99)).toEqual({ react: 0, app: 0 });
    expect(await loadedAfter(1)).toEqual({ react: 1, app: 0 });
    expect(await appAfterReact()).toEqual({ react: 1, app: 1 });
  });

  test("the app's modules are requested when it starts, all at once and once: not alongside the page", async () => {
    const frame = holdFrames();
    document.head.innerHTML = '<meta name="app-modules" content="/assets/app-1.js /assets/react-2.js">';
    const requested = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => new URL(l.href).pathname);
    await loadBoot();
    await settle();
    expect(requested()).toEqual([]);
    frame.draw();
    await loadedAfter(0);
    expect(requested()).toEqual(["/assets/app-1.js", "/assets/react-2.js"]);
    await appAfterReact();
    await loadedAfter(200);
    expect(requested()).toEqual(["/assets/app-1.js", "/assets/react-2.js"]);
  });

  test("a page without the list (the dev server's) starts the app all the same", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("requestAnimationFrame", () => 1);
    await loadBoot();
    expect(await loadedAfter(100)).toEqual({ react: 1, app: 0 });
    expect(await appAfterReact()).toEqual({ react: 1, app: 1 });
    expect(document.head.querySelector("link")).toBeNull();
  });
});
