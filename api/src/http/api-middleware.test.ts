/** The /api middleware keeps its promises while skipping the work it does not need. */
import { Hono } from "hono";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { apiBodyLimit, gzipLargeJson, noStoreByDefault } from "./api-middleware.ts";

function app() {
  const a = new Hono();
  a.use("*", gzipLargeJson(1024));
  a.use("*", noStoreByDefault);
  a.use("*", apiBodyLimit(100, (c) => c.req.path === "/upload"));
  a.get("/small", (c) => c.json({ ok: true }));
  a.get("/large", (c) => c.json({ items: "x".repeat(5000) }, 200, { "X-Kind": "large" }));
  a.get("/cached", (c) => c.json({ ok: true }, 200, { "Cache-Control": "public, max-age=60" }));
  a.get("/text", (c) => c.text("y".repeat(5000)));
  const cachedText = JSON.stringify({ items: "z".repeat(5000) });
  a.get("/cached-json", (c) => c.body(cachedText, 200, { "Content-Type": "application/json", "Content-Length": String(cachedText.length) }));
  a.post("/echo", async (c) => c.json({ length: (await c.req.text()).length }));
  a.post("/upload", async (c) => c.json({ length: (await c.req.text()).length }));
  return a;
}

const gzip = { "accept-encoding": "gzip" };

describe("gzipLargeJson", () => {
  it("leaves a small JSON answer uncompressed", async () => {
    const res = await app().request("/small", { headers: gzip });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ ok: true });
  });

  it("gzips a large JSON answer and keeps the route's status and headers", async () => {
    const res = await app().request("/large", { headers: gzip });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("x-kind")).toBe("large");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString("utf8"));
    expect(body.items).toHaveLength(5000);
  });

  it("judges JSON sent as ready text by its Content-Length", async () => {
    const res = await app().request("/cached-json", { headers: gzip });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString("utf8")).items).toHaveLength(5000);
  });

  it("compresses other types as compress() does", async () => {
    const res = await app().request("/text", { headers: gzip });
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });
});

describe("noStoreByDefault", () => {
  it("marks answers no-store unless the route chose its own policy", async () => {
    expect((await app().request("/small")).headers.get("cache-control")).toBe("no-store");
    expect((await app().request("/cached")).headers.get("cache-control")).toBe("public, max-age=60");
  });
});

describe("apiBodyLimit", () => {
  const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
    app().request(path, { method: "POST", body, headers, duplex: "half" } as RequestInit);

  it("refuses a declared length over the limit and lets one under it through", async () => {
    expect((await post("/echo", "z".repeat(101), { "content-length": "101" })).status).toBe(413);
    const ok = await post("/echo", "z".repeat(100), { "content-length": "100" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ length: 100 });
  });

  it("counts a body sent without a length (chunked) as it streams", async () => {
    const stream = (n: number) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < n; i++) controller.enqueue(new Uint8Array(10).fill(97));
          controller.close();
        },
      });
    expect((await post("/echo", stream(11))).status).toBe(413);
    expect(await (await post("/echo", stream(10))).json()).toEqual({ length: 100 });
  });

  it("skips the routes it is told to skip", async () => {
    expect((await post("/upload", "z".repeat(500), { "content-length": "500" })).status).toBe(200);
  });
});
