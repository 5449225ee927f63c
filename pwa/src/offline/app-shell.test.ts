import { describe, expect, it, vi } from "vitest";
import { registerAppShell, type WorkboxLike } from "./app-shell";

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

describe("registerAppShell", () => {
  it("reports offline-ready, then a waiting update that is applied only when nothing is in flight", async () => {
    const wb = fakeWorkbox();
    const reload = vi.fn();
    let busy = true;
    const shell = registerAppShell({ enabled: true, createWorkbox: async () => wb, reload, isBusy: () => busy, target: new EventTarget() as unknown as Window });
    await vi.waitFor(() => expect(wb.register).toHaveBeenCalled(), { timeout: 5_000 });

    wb.emit("activated", { isUpdate: false });
    expect(shell.state.getSnapshot().offlineReady).toBe(true);
    wb.emit("waiting");
    expect(shell.state.getSnapshot().updateReady).toBe(true);

    const applying = shell.applyUpdate();
    await new Promise((r) => setTimeout(r, 300));
    expect(wb.messageSkipWaiting).not.toHaveBeenCalled(); // a vote is being sent
    busy = false;
    await applying;
    expect(wb.messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledTimes(1);
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
});
