/**
 * Serves the built PWA from pwa/dist on the API's origin. Hashed assets are immutable;
 * index.html and the service worker are `no-cache` so a new deploy is picked up. A path with
 * a file extension that does not exist is a 404; any other GET is the SPA's index.html.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize, resolve } from "node:path";
import type { Hono } from "hono";
import { messages } from "@evoting/shared";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

function cacheControl(path: string): string {
  if (path.startsWith("/assets/")) return "public, max-age=31536000, immutable";
  if (path === "/index.html" || path === "/sw.js" || path.startsWith("/workbox-") || path.endsWith(".webmanifest")) {
    return "no-cache";
  }
  return "public, max-age=3600";
}

export function serveStatic(app: Hono<any>, root: string): void {
  const base = resolve(root);
  const indexPath = join(base, "index.html");
  app.get("*", (c) => {
    const url = new URL(c.req.url);
    let path: string;
    try {
      path = normalize(decodeURIComponent(url.pathname));
    } catch {
      return c.json({ message: messages.notFound }, 404);
    }
    if (path.startsWith("/api/") || path === "/api") return c.json({ message: messages.notFound }, 404);
    const file = join(base, path);
    if (file.startsWith(base + "/") && existsSync(file) && statSync(file).isFile()) {
      return c.body(readFileSync(file), 200, {
        "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
        "Cache-Control": cacheControl(path),
      });
    }
    if (extname(path) !== "") return c.json({ message: messages.notFound }, 404);
    if (!existsSync(indexPath)) return c.text("The PWA is not built yet: run `npm run build`.", 503);
    return c.body(readFileSync(indexPath), 200, {
      "Content-Type": TYPES[".html"],
      "Cache-Control": "no-cache",
    });
  });
}
