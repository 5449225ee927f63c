import { describe, expect, it, vi } from "vitest";
import { prefetchPhotos } from "./photos";

const candidate = (id: string, photo: string | null) => ({ _id: id, name: id, photo, position: { _id: "p", title: "P" }, positionId: "p", positionTitle: "P" });

describe("prefetchPhotos", () => {
  it("asks once for each distinct photo when a service worker will keep it", async () => {
    const fetchImpl = vi.fn(async (_url: string) => undefined);
    const positions = [
      { candidates: [candidate("a", "/api/photos/1"), candidate("b", null)] },
      { candidates: [candidate("c", "/api/photos/2"), candidate("d", "/api/photos/1")] },
    ];
    expect(await prefetchPhotos(positions, fetchImpl, true)).toBe(2);
    expect(fetchImpl.mock.calls.map((c) => c[0])).toEqual(["/api/photos/1", "/api/photos/2"]);
  });

  it("does nothing without a controlling service worker, and ignores failures", async () => {
    const fetchImpl = vi.fn(async () => {
      throw new TypeError("offline");
    });
    expect(await prefetchPhotos([{ candidates: [candidate("a", "/api/photos/1")] }], fetchImpl, false)).toBe(0);
    expect(fetchImpl).not.toHaveBeenCalled();
    await expect(prefetchPhotos([{ candidates: [candidate("a", "/api/photos/1")] }], fetchImpl, true)).resolves.toBe(1);
  });

  it("starts one request per task, so a long ballot never makes one long task", async () => {
    vi.useFakeTimers();
    try {
      const fetchImpl = vi.fn(async (_url: string) => undefined);
      const done = prefetchPhotos([{ candidates: ["1", "2", "3"].map((n) => candidate(n, `/api/photos/${n}`)) }], fetchImpl, true);
      expect(fetchImpl).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(0);
      expect(fetchImpl).toHaveBeenCalledTimes(2);
      await vi.runAllTimersAsync();
      await expect(done).resolves.toBe(3);
      expect(fetchImpl).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
