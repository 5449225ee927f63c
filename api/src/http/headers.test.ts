/**
 * Security headers and body limits: a CSP the PWA runs under (no inline script),
 * HSTS, nosniff and friends on every answer (API, static files, SPA fallback, errors), and a
 * body limit on every route that takes a body (413, streamed or declared).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PHOTO_BYTES } from "@evoting/shared";
import { createApp } from "../app.ts";
import { listen } from "./pipeline.ts";
import { createTestApp, TINY_PNG, type TestApp } from "../test/harness.ts";

let t: TestApp;
let admin: string;
let voter: string;
let staticDir: string;
let withStatic: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  voter = (await t.createVoter(admin)).token;
  staticDir = mkdtempSync(join(tmpdir(), "evoting-static-"));
  mkdirSync(join(staticDir, "assets"));
  writeFileSync(join(staticDir, "index.html"), '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(staticDir, "assets/app.js"), "console.log(1)");
  withStatic = createApp(t.deps, { staticRoot: staticDir });
});
afterAll(async () => {
  await t.close();
  rmSync(staticDir, { recursive: true, force: true });
});

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name.toLowerCase(), values]),
  );
}

function expectSecureHeaders(res: Response, label: string) {
  const h = res.headers;
  expect(h.get("x-content-type-options"), label).toBe("nosniff");
  const hsts = h.get("strict-transport-security") ?? "";
  expect(Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0), `${label} HSTS`).toBeGreaterThanOrEqual(15_552_000);
  const csp = directives(h.get("content-security-policy") ?? "");
  const scripts = csp.get("script-src") ?? csp.get("default-src") ?? [];
  expect(scripts.length, `${label} CSP script-src`).toBeGreaterThan(0);
  expect(scripts, label).not.toContain("'unsafe-inline'");
  expect(scripts, label).not.toContain("'unsafe-eval'");
  expect(scripts.some((s) => s === "*" || s.startsWith("http:") || s === "data:"), label).toBe(false);
  // Photos carry their own stricter policy (default-src 'none'; sandbox).
  if (!label.includes("/photos/")) {
    expect(csp.get("object-src"), label).toEqual(["'none'"]);
    expect(csp.get("frame-ancestors"), label).toEqual(["'none'"]);
    expect(csp.get("base-uri"), label).toEqual(["'self'"]);
  }
  expect(h.get("x-frame-options"), label).toMatch(/DENY|SAMEORIGIN/i);
  expect(h.get("referrer-policy"), label).toBeTruthy();
}

/** A candidate with a PNG photo uploaded under the given type and file name: the photo's URL. */
async function candidatePhoto(positionTitle: string, type: string, fileName: string): Promise<string> {
  const { position } = await t.openElection(admin, [], positionTitle);
  const form = new FormData();
  form.set("name", "Pat");
  form.set("positionId", position._id);
  form.set("photo", new Blob([TINY_PNG], { type }), fileName);
  const created = await t.request("/admin/candidates", { method: "POST", token: admin, body: form });
  expect(created.status).toBe(201);
  return (await created.json()).photo as string;
}

describe("security headers", () => {
  it("are on API answers: success, errors, 404s", async () => {
    const cases: [string, RequestInit & { token?: string; json?: unknown }][] = [
      ["/health", {}],
      ["/vote/results", { token: voter }],
      ["/vote/results", {}],
      ["/admin/positions", { token: voter }],
      ["/auth/login", { method: "POST", json: { matricNumber: "nope" } }],
      ["/no/such/route", {}],
    ];
    for (const [path, init] of cases) {
      const res = await t.request(path, init);
      expectSecureHeaders(res, `${init.method ?? "GET"} ${path} ${res.status}`);
      expect(res.headers.get("cache-control"), path).toContain("no-store");
    }
  });

  it("are on the PWA's files and the SPA fallback", async () => {
    for (const path of ["/", "/vote", "/admin/users", "/assets/app.js", "/assets/missing.js"]) {
      const res = await withStatic.request(path);
      expectSecureHeaders(res, `static ${path} ${res.status}`);
    }
  });

  it("the CSP fits the built PWA: no inline scripts, no inline event handlers", () => {
    const root = resolve(import.meta.dirname, "../../..", "pwa");
    const files = [join(root, "index.html"), join(root, "dist/index.html")].filter(existsSync);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const html = readFileSync(file, "utf8");
      for (const tag of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? []) {
        expect(tag, `${file}: inline script would be blocked by the CSP`).toMatch(/^<script\b[^>]*\bsrc=/i);
        expect(tag.replace(/^<script\b[^>]*>/i, "").replace(/<\/script>$/i, "").trim(), file).toBe("");
      }
      expect(html, file).not.toMatch(/\son[a-z]+\s*=\s*["']/i);
      expect(html, file).not.toMatch(/javascript:/i);
    }
  });

  it("photos are served with nosniff, a sandboxing CSP and their sniffed type only", async () => {
    const photo = await candidatePhoto("Treasurer", "text/html", "evil.html");
    const res = await t.app.request(photo);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
  });
});

describe("security headers under Node's HTTP server (set on the Node response, not by secureHeaders())", () => {
  it("are the same headers app.request() gets, and an answer's own CSP and Cache-Control still win (photos)", async () => {
    const photo = await candidatePhoto("Secretary", "image/png", "lee.png");

    // As server.ts serves it: results and votes answered before Hono (http/pipeline.ts).
    const server = await listen(withStatic, t.deps, { port: 0, hostname: "127.0.0.1" });
    const { port } = server.address() as { port: number };
    const security = (h: Headers) =>
      Object.fromEntries(
        [...h.entries()].filter(([name]) => /^(content-security-policy|strict-transport-security|x-|referrer-policy|cross-origin|origin-agent)/.test(name)),
      );
    try {
      const cases: [string, RequestInit][] = [
        ["/api/health", {}],
        ["/api/vote/results", { headers: { authorization: `Bearer ${voter}` } }],
        ["/api/vote", { method: "POST", headers: { authorization: `Bearer ${voter}`, "content-type": "application/json" }, body: '{"positionId":"none","candidateId":"none"}' }],
        ["/api/no/such/route", {}],
        ["/api/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: "{" }],
        ["/vote", {}],
        ["/assets/app.js", {}],
        [photo, {}],
      ];
      for (const [path, init] of cases) {
        const overNode = await fetch(`http://127.0.0.1:${port}${path}`, init);
        const inProcess = await withStatic.request(path, init);
        expect(overNode.status, path).toBe(inProcess.status);
        expectSecureHeaders(overNode, `node ${path} ${overNode.status}`);
        expect(security(overNode.headers), path).toEqual(security(inProcess.headers));
        // no-store by default, the route's own Cache-Control where it sets one (a photo: immutable).
        expect(overNode.headers.get("cache-control"), path).toBe(inProcess.headers.get("cache-control"));
        if (path === photo) expect(overNode.headers.get("content-security-policy")).toContain("sandbox");
        await overNode.arrayBuffer();
      }
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });
});

describe("body limits", () => {
  const jsonRoutes: [string, string, () => string | undefined][] = [
    ["POST", "/auth/check-user", () => undefined],
    ["POST", "/auth/login", () => undefined],
    ["POST", "/auth/logout", () => voter],
    ["PUT", "/auth/email", () => voter],
    ["PUT", "/auth/password", () => voter],
    ["POST", "/admin/users", () => admin],
    ["POST", "/admin/positions", () => admin],
    ["POST", "/vote", () => voter],
    ["POST", "/chat/messages", () => voter],
    ["POST", "/chat/mutes", () => admin],
    ["DELETE", "/admin/positions/x", () => admin],
  ];
  const big = JSON.stringify({ pad: "x".repeat(100 * 1024) });

  it("answers 413 to an oversized declared body on every route", async () => {
    for (const [method, path, token] of jsonRoutes) {
      const res = await t.request(path, { method, token: token(), headers: { "content-type": "application/json" }, body: big });
      expect(res.status, `${method} ${path}`).toBe(413);
      expect((await res.json()).message).toBeTruthy();
    }
  });

  it("answers 413 to an oversized streamed body with no Content-Length", async () => {
    for (const [method, path, token] of jsonRoutes) {
      const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ >= 8) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const res = await t.request(path, {
        method,
        token: token(),
        headers: { "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit);
      expect(res.status, `${method} ${path}`).toBe(413);
    }
  });

  it("caps candidate uploads a little above the photo limit", async () => {
    const form = new FormData();
    form.set("name", "Big");
    form.set("positionId", "x");
    form.set("photo", new Blob([new Uint8Array(MAX_PHOTO_BYTES + 200 * 1024)]), "big.png");
    const res = await t.request("/admin/candidates", { method: "POST", token: admin, body: form });
    expect(res.status).toBe(413);
  });
});
