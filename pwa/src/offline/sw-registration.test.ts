import { afterEach, describe, expect, it, vi } from "vitest";
import { isStaffPath, registerAppShell, type WorkboxLike } from "./sw-registration";

function fakeWorkbox() {
  const listeners = new Map<string, ((event: { isUpdate?: boolean }) => void)[]>();
  const wb: WorkboxLike & { emit(type: string, event?: { isUpdate?: boolean }): void } = {
    addEventListener: (type, listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    register: vi.fn(async () => undefined),
    update: vi.fn(async () => undefined),
    messageSkipWaiting: vi.fn(() => wb.emit("controlling")),
    emit: (type, event = {}) => listeners.get(type)?.forEach((l) => l(event)),
  };
  return wb;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("registerAppShell", () => {
  it("reports offline-ready, then a waiting update that is applied only when nothing is in flight", async () => {
    const wb = fakeWorkbox();
    const reload = vi.fn();
    let busy = true;
    let checks = 0;
    const isBusy = () => {
      checks++;
      return busy;
    };
    const shell = registerAppShell({ enabled: true, createWorkbox: async () => wb, reload, isBusy, target: new EventTarget() as unknown as Window });
    await vi.waitFor(() => expect(wb.register).toHaveBeenCalled(), { timeout: 5_000 });

    wb.emit("activated", { isUpdate: false });
    expect(shell.state.getSnapshot().offlineReady).toBe(true);
    wb.emit("waiting");
    expect(shell.state.getSnapshot().updateReady).toBe(true);

    const applying = shell.applyUpdate();
    // Asked, found busy, asked again: still waiting.
    await vi.waitFor(() => expect(checks).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    expect(wb.messageSkipWaiting).not.toHaveBeenCalled(); // a vote is being sent
    busy = false;
    await applying;
    expect(wb.messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("registers again when the first install fails or the worker cannot be fetched, until one activates", async () => {
    vi.useFakeTimers();
    const workers = [fakeWorkbox(), fakeWorkbox(), fakeWorkbox()];
    // 1: the install fails (the worker goes redundant before activating); 2: sw.js cannot be fetched.
    workers[0].register = vi.fn(async () => queueMicrotask(() => workers[0].emit("redundant")));
    workers[1].register = vi.fn(async () => Promise.reject(new Error("network")));
    workers[2].register = vi.fn(async () => queueMicrotask(() => workers[2].emit("activated", { isUpdate: false })));
    let created = 0;
    const shell = registerAppShell({
      enabled: true,
      createWorkbox: async () => workers[created++],
      retryDelaysMs: [10, 10, 10],
      target: new EventTarget() as unknown as Window,
    });
    await vi.waitFor(() => expect(shell.state.getSnapshot().offlineReady).toBe(true), { timeout: 5_000 });
    expect(created).toBe(3);
    // Activated: a later redundant worker (replaced by an update) starts nothing new.
    workers[2].emit("redundant");
    await vi.advanceTimersByTimeAsync(1_000); // a retry it had set (after 10 ms at most) would run now
    expect(created).toBe(3);
  });

  it("gives up after the last retry", async () => {
    vi.useFakeTimers();
    let created = 0;
    const shell = registerAppShell({
      enabled: true,
      createWorkbox: async () => {
        created++;
        const wb = fakeWorkbox();
        wb.register = vi.fn(async () => queueMicrotask(() => wb.emit("redundant")));
        return wb;
      },
      retryDelaysMs: [5, 5],
      target: new EventTarget() as unknown as Window,
    });
    await vi.waitFor(() => expect(created).toBe(3), { timeout: 5_000 });
    await vi.advanceTimersByTimeAsync(1_000); // a retry it had set (after 10 ms at most) would run now
    expect(created).toBe(3);
    expect(shell.state.getSnapshot().offlineReady).toBe(false);
  });

  it("keeps the browser's install prompt for the 'Install app' button, usable once", async () => {
    const target = new EventTarget();
    const shell = registerAppShell({ enabled: false, target: target as unknown as Window });
    expect(await shell.promptInstall()).toBe("unavailable");

    const prompt = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
      prompt: vi.fn(async () => undefined),
      userChoice: Promise.resolve({ outcome: "accepted" as const }),
    });
    target.dispatchEvent(prompt);
    expect(prompt.defaultPrevented).toBe(true);
    expect(shell.state.getSnapshot().canInstall).toBe(true);

    expect(await shell.promptInstall()).toBe("accepted");
    expect(prompt.prompt).toHaveBeenCalledTimes(1);
    expect(await shell.promptInstall()).toBe("unavailable");

    target.dispatchEvent(new Event("appinstalled"));
    expect(shell.state.getSnapshot()).toMatchObject({ canInstall: false, installed: true });
  });

  it("asks the worker once to cache the staff screens, as soon as it controls the page", async () => {
    const posted: unknown[] = [];
    const container = Object.assign(new EventTarget(), { controller: null as { postMessage(message: unknown): void } | null });
    const shell = registerAppShell({
      enabled: true,
      createWorkbox: async () => fakeWorkbox(),
      serviceWorker: container as unknown as ServiceWorkerContainer,
      target: new EventTarget() as unknown as Window,
    });
    shell.cacheStaffScreens();
    expect(posted).toEqual([]);
    container.controller = { postMessage: (message) => posted.push(message) };
    container.dispatchEvent(new Event("controllerchange"));
    expect(posted).toEqual([{ type: "CACHE_STAFF_SCREENS" }]);
    shell.cacheStaffScreens();
    expect(posted).toHaveLength(1);
  });

  it("knows the staff screens by their address", () => {
    for (const path of ["/admin", "/admin/voters", "/admin/results/print", "/station"]) expect(isStaffPath(path), path).toBe(true);
    for (const path of ["/", "/login", "/vote", "/results", "/candidates", "/administration", "/stations", "/elections"]) expect(isStaffPath(path), path).toBe(false);
  });
});
