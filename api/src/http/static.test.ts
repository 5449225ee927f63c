/**
 * The built PWA as served: each file gzipped once and served from memory, the same bytes as
 * on disk once unzipped, read again when the file changes (a new build under a running server).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { createApp } from "../app.ts";
import { serveStatic } from "./static.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";

let t: TestApp;
let dir: string;
let app: ReturnType<typeof createApp>;
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(",")}];\n`;
const page = `<!doctype html><title>CSC E-Voting</title>${"<p>splash</p>".repeat(200)}`;

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), "evoting-static-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), page);
  writeFileSync(join(dir, "assets/app-1.js"), script);
  writeFileSync(join(dir, "assets/tiny-1.js"), "export {};");
  writeFileSync(join(dir, "icon.png"), Buffer.alloc(4096, 7));
  app = createApp(t.deps, { staticRoot: dir });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, encoding = "gzip, deflate, br") => app.request(path, { headers: { "Accept-Encoding": encoding } });

describe("static files", () => {
  it("gzips a script once and serves the same bytes each time", async () => {
    const first = await get("/assets/app-1.js");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-encoding")).toBe("gzip");
    expect(first.headers.get("vary")).toBe("Accept-Encoding");
    expect(first.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const zipped = Buffer.from(await first.arrayBuffer());
    expect(zipped.length).toBeLessThan(script.length / 3);
    expect(gunzipSync(zipped).toString()).toBe(script);
    const again = Buffer.from(await (await get("/assets/app-1.js")).arrayBuffer());
    expect(again.equals(zipped)).toBe(true);
  });

  it("sends the file as it is to a client that takes no gzip", async () => {
    const res = await get("/assets/app-1.js", "identity");
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(await res.text()).toBe(script);
  });

  it("leaves small files and images unzipped", async () => {
    const tiny = await get("/assets/tiny-1.js");
    expect(tiny.headers.get("content-encoding")).toBeNull();
    expect(await tiny.text()).toBe("export {};");
    const icon = await get("/icon.png");
    expect(icon.headers.get("content-encoding")).toBeNull();
    expect(icon.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await icon.arrayBuffer()).equals(Buffer.alloc(4096, 7))).toBe(true);
  });

  it("serves the app's page for a route, zipped, never cached by the browser", async () => {
    const res = await get("/vote");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(page);
  });

  it("reads a file again when it changes on disk", async () => {
    await get("/index.html");
    const rebuilt = page.replace("splash", "new splash");
    writeFileSync(join(dir, "index.html"), rebuilt);
    // A new build can keep the size; the modification time tells it apart.
    utimesSync(join(dir, "index.html"), new Date(), new Date(Date.now() + 5_000));
    const res = await get("/index.html");
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(rebuilt);
    writeFileSync(join(dir, "index.html"), page);
  });

  it("answers a missing file with 404 and a message", async () => {
    const res = await get("/assets/missing-1.js");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: messages.notFound });
  });

  it("reads and gzips the whole build at start, before any request asks for it", async () => {
    const build = mkdtempSync(join(tmpdir(), "evoting-static-warm-"));
    try {
      mkdirSync(join(build, "assets"));
      writeFileSync(join(build, "index.html"), page);
      writeFileSync(join(build, "assets/app-1.js"), script);
      writeFileSync(join(build, "assets/tiny-1.js"), "export {};");
      const file = join(build, "assets/app-1.js");
      const builtAt = new Date("2026-11-24T04:00:00Z");
      utimesSync(file, builtAt, builtAt);
      const warmApp = new Hono();
      const { warmed } = serveStatic(warmApp, build);
      expect(await warmed).toBe(3);
      // Changed on disk with the same size and time, the file is still served as read at
      // start: the copy in memory is the one the warm-up made.
      writeFileSync(file, script.replace("row 1", "ROW 1"));
      utimesSync(file, builtAt, builtAt);
      const res = await warmApp.request("/assets/app-1.js", { headers: { "Accept-Encoding": "gzip" } });
      expect(res.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(script);
    } finally {
      rmSync(build, { recursive: true, force: true });
    }
  });

  it("a build that is not there warms nothing and still answers", async () => {
    const warmApp = new Hono();
    const { warmed } = serveStatic(warmApp, join(tmpdir(), "evoting-static-none-" + Date.now()));
    expect(await warmed).toBe(0);
    expect((await warmApp.request("/vote")).status).toBe(503);
  });
});
