/** A tiny fetch stub for component tests: answers by "METHOD /path" and records calls. */
import { vi } from "vitest";

export type Handler = (init: RequestInit & { url: string }) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

export function mockFetch(routes: Record<string, Handler>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url, "http://localhost").pathname;
    const key = `${(init.method ?? "GET").toUpperCase()} ${path}`;
    const handler = routes[key];
    if (!handler) return json({ message: `No mock for ${key}` }, 500);
    return handler({ ...init, url });
  });
  vi.stubGlobal("fetch", fn);
  return fn;
}

/** A promise the test resolves by hand, to hold a request "in flight". */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
