import { act, renderHook } from "@testing-library/react";
import { describe, expect, test, vi } from "vitest";
import { json, mockFetch } from "../../test/fetch-mock";
import { useAuthMethod } from "./use-auth-method";

const flush = () => act(async () => {});

describe("useAuthMethod", () => {
  test("looks the user up 500 ms after the value matches the pattern, not before", async () => {
    vi.useFakeTimers();
    const fetch = mockFetch({ "POST /api/auth/check-user": () => json({ requiresPassword: true }) });
    const { result, rerender } = renderHook(({ matric }) => useAuthMethod(matric), { initialProps: { matric: "2020/557" } });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(fetch).not.toHaveBeenCalled(); // not matching yet

    rerender({ matric: "2020/5570123" });
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(fetch).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(JSON.parse(fetch.mock.calls[0][1]!.body as string)).toEqual({ matricNumber: "2020/5570123" });
    expect(result.current).toEqual({ method: "password", checking: false, notFound: null });
  });

  test("typing again restarts the wait: one lookup for the final value", async () => {
    vi.useFakeTimers();
    const fetch = mockFetch({ "POST /api/auth/check-user": () => json({ requiresPassword: false }) });
    const { result, rerender } = renderHook(({ matric }) => useAuthMethod(matric), { initialProps: { matric: "2020/55701" } });
    await act(() => vi.advanceTimersByTimeAsync(300));
    rerender({ matric: "2020/557012" });
    await act(() => vi.advanceTimersByTimeAsync(300));
    rerender({ matric: "2020/5570123" });
    await act(() => vi.advanceTimersByTimeAsync(500));
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(result.current.method).toBe("dob");
  });

  test("a 404 says 'User not found' and leaves the method unknown; clearing resets", async () => {
    vi.useFakeTimers();
    mockFetch({ "POST /api/auth/check-user": () => json({ message: "User not found" }, 404) });
    const { result, rerender } = renderHook(({ matric }) => useAuthMethod(matric), { initialProps: { matric: "2020/5570999" } });
    await act(() => vi.advanceTimersByTimeAsync(500));
    await flush();
    expect(result.current).toEqual({ method: "unknown", checking: false, notFound: "User not found" });
    rerender({ matric: "" });
    expect(result.current).toEqual({ method: "unknown", checking: false, notFound: null });
  });

  test("other errors are only logged", async () => {
    vi.useFakeTimers();
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    mockFetch({ "POST /api/auth/check-user": () => json({ message: "boom" }, 500) });
    const { result } = renderHook(() => useAuthMethod("2020/5570123"));
    await act(() => vi.advanceTimersByTimeAsync(500));
    await flush();
    expect(result.current).toEqual({ method: "unknown", checking: false, notFound: null });
    expect(log).toHaveBeenCalled();
  });

  test("a slow answer for an old value does not overwrite the current one", async () => {
    vi.useFakeTimers();
    let release!: () => void;
    mockFetch({
      "POST /api/auth/check-user": async (init) => {
        const { matricNumber } = JSON.parse(init.body as string) as { matricNumber: string };
        if (matricNumber === "2020/5570111") await new Promise<void>((r) => (release = r));
        return json({ requiresPassword: matricNumber === "2020/5570111" });
      },
    });
    const { result, rerender } = renderHook(({ matric }) => useAuthMethod(matric), { initialProps: { matric: "2020/5570111" } });
    await act(() => vi.advanceTimersByTimeAsync(500));
    rerender({ matric: "2020/5570222" });
    await act(() => vi.advanceTimersByTimeAsync(500));
    await flush();
    expect(result.current.method).toBe("dob");
    release();
    await flush();
    expect(result.current.method).toBe("dob");
  });
});
