/**
 * Serves the built PWA from pwa/dist on the API's origin. Hashed assets are immutable;
 * index.html and the service worker are `no-cache` so a new deploy is picked up. A path with
 * a file extension that does not exist is a 404; any other GET is the SPA's index.html.
 *
 * Each file is read and gzipped once, then served from memory: the first minutes of polling
 * day bring hundreds of phones for the same ~300 KB, and gzipping the app's largest chunk on
 * every request holds the event loop, delaying every other answer meanwhile
 * (the page's small first script waited behind it). A file changed on disk is read again.
 * The whole build is read and gzipped at start, one file per turn of the event loop, so no
 * request pays for it: the first phones after a restart, and the first visit's page itself,
 * whose start-up shared the machine with that gzip (figures in decision 0018).
 */
import { readdirSync, readFileSync, statSync, type Stats } from "node:fs";
import { extname, join, normalize, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type { Context, Env, Hono } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/compress";
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

/** Smaller files go out as they are (as hono's compress() does). */
const GZIP_THRESHOLD = 1024;

type StaticFile = { mtimeMs: number; size: number; body: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> | null };
type Reader = (file: string, type: string, stats: Stats) => StaticFile;

const typeOf = (file: string) => TYPES[extname(file)] ?? "application/octet-stream";

/** Files as served, by path: the bytes, and their gzip when that is worth sending. */
function fileCache(): Reader {
  const files = new Map<string, StaticFile>();
  return (file, type, { mtimeMs, size }) => {
    const cached = files.get(file);
    if (cached && cached.mtimeMs === mtimeMs && cached.size === size) return cached;
    const body = readFileSync(file);
    const compressible = body.length >= GZIP_THRESHOLD && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type);
    const entry = { mtimeMs, size, body, gzip: compressible ? gzipSync(body, { level: 9 }) : null };
    files.set(file, entry);
    return entry;
  };
}

/**
 * Reads (and gzips) every file under `base` into the cache, one file per turn of the event
 * loop so requests are answered in between. Resolves with how many files it read. A file
 * that goes away meanwhile is skipped; it is a 404 when asked for, as before.
 */
function warmUp(base: string, read: Reader): Promise<number> {
  let files: string[];
  try {
    files = readdirSync(base, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return Promise.resolve(0);
  }
  let count = 0;
  let at = 0;
  return new Promise((resolve) => {
    const next = () => {
      const file = files[at++];
      if (file === undefined) return resolve(count);
      try {
        const stats = statSync(file, { throwIfNoEntry: false });
        if (stats?.isFile()) {
          read(file, typeOf(file), stats);
          count += 1;
        }
      } catch {
        // Gone or unreadable now: its request will say so.
      }
      // Does not keep a process alive that has nothing else to do (a test, a script).
      setImmediate(next).unref();
    };
    setImmediate(next).unref();
  });
}

function send(c: Context, file: StaticFile, headers: Record<string, string>): Response {
  if (!file.gzip) return c.body(file.body, 200, headers);
  // The same URL answers differently by Accept-Encoding: caches must keep them apart.
  const vary = { ...headers, Vary: "Accept-Encoding" };
  if (!/\bgzip\b/i.test(c.req.header("Accept-Encoding") ?? "")) return c.body(file.body, 200, vary);
  return c.body(file.gzip, 200, { ...vary, "Content-Encoding": "gzip" });
}

/** Serves `root` under `app`; resolves once every file there has been read and gzipped ahead of its first request. */
export function serveStatic<E extends Env>(app: Hono<E>, root: string): { warmed: Promise<number> } {
  const read = fileCache();
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
    // No file name holds a NUL, and the file system refuses one with an exception.
    if (path.includes("\0")) return c.json({ message: messages.notFound }, 404);
    if (path.startsWith("/api/") || path === "/api") return c.json({ message: messages.notFound }, 404);
    const file = join(base, path);
    // One stat per request: it says whether the file is there and whether the cached copy is current.
    const stats = file.startsWith(base + "/") ? statSync(file, { throwIfNoEntry: false }) : undefined;
    if (stats?.isFile()) {
      const type = typeOf(file);
      return send(c, read(file, type, stats), { "Content-Type": type, "Cache-Control": cacheControl(path) });
    }
    if (extname(path) !== "") return c.json({ message: messages.notFound }, 404);
    const index = statSync(indexPath, { throwIfNoEntry: false });
    if (!index?.isFile()) return c.text("The PWA is not built yet: run `npm run build`.", 503);
    return send(c, read(indexPath, TYPES[".html"], index), { "Content-Type": TYPES[".html"], "Cache-Control": "no-cache" });
  });
  return { warmed: warmUp(base, read) };
}
