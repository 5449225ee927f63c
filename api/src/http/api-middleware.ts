/**
 * The middleware every /api request passes, written to cost nothing it does not need
 * (bench/README.md, "Where a vote's CPU goes"):
 *
 * - `apiBodyLimit`: the 64 KB limit, read from Content-Length. Hono's bodyLimit() touches
 *   `c.req.raw.body`, which under @hono/node-server turns the light request into a full web
 *   Request with a ReadableStream, a large share of a vote's CPU (decision 0016). Only a body without a
 *   length (chunked) is still counted as it streams, by bodyLimit() itself.
 * - `noStoreByDefault`: Cache-Control: no-store unless the route set its own. Under
 *   @hono/node-server it goes on Node's response before the route; elsewhere on the answer's
 *   own headers (`c.header()` after the answer exists copies the whole Response).
 * - `gzipLargeJson`: small JSON answers go out as they are (gzip's event-loop time is not
 *   worth a few hundred bytes; decision 0016); only JSON of at least `threshold` bytes is gzipped, and
 *   other types as compress() decides. The size is known where c.json() serialises, so
 *   nothing is read back from the answer to learn it.
 */
import type { Context, MiddlewareHandler, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { messages } from "@evoting/shared";
import { fail } from "./errors.ts";
import { nodeResponseBeforeHeaders } from "./node-response.ts";

/** JSON bodies here are small; only candidate uploads are larger (their own limit). */
export const JSON_BODY_LIMIT = 64 * 1024;

/** API JSON answers smaller than this go out uncompressed (`gzipLargeJson`). */
export const API_GZIP_THRESHOLD = 16 * 1024;

/** What every /api answer carries unless its route set its own (`noStoreByDefault`). */
export const NO_STORE = ["Cache-Control", "no-store"] as const;

/**
 * The body limit, judged from the request's declared length: true when it is within
 * `maxSize`, false when the length is not declared (a chunked body, counted as it streams);
 * over the limit, 413. Both ways a request is served call it (`apiBodyLimit`, http/pipeline.ts).
 */
export function withinDeclaredLimit(contentLength: string | undefined, transferEncoding: string | undefined, maxSize: number): boolean {
  if (contentLength === undefined || transferEncoding !== undefined) return false;
  if (Number(contentLength) > maxSize) fail(413, messages.bodyTooLarge);
  return true;
}

/** `withinDeclaredLimit` for every /api request with a body but those `skip` names (their own, larger limits). */
export function apiBodyLimit(maxSize: number, skip: (c: Context) => boolean): MiddlewareHandler {
  const streamed = bodyLimit({ maxSize, onError: () => fail(413, messages.bodyTooLarge) });
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || skip(c)) return next();
    if (withinDeclaredLimit(c.req.header("content-length"), c.req.header("transfer-encoding"), maxSize)) return next();
    return streamed(c, next);
  };
}

export const noStoreByDefault: MiddlewareHandler = async (c, next) => {
  // Under @hono/node-server, on Node's response before the route: the answer's own
  // Cache-Control, if it sets one, wins when Node merges them (http/security-headers.ts).
  const outgoing = nodeResponseBeforeHeaders(c);
  if (outgoing) {
    outgoing.setHeader(...NO_STORE);
    return next();
  }
  await next();
  const headers = c.res.headers;
  if (!headers.has("cache-control")) headers.set(...NO_STORE);
};

const noop = async () => {};

/** Whether JSON of this length (characters, or bytes when only those are known) goes out as it is. */
export const goesOutUncompressed = (length: number, threshold: number) => length < threshold;

/** compress() for /api answers, but never on JSON under `threshold` (API_GZIP_THRESHOLD). */
export function gzipLargeJson(threshold: number): MiddlewareHandler {
  const gzip = compress();
  return async (c: Context, next: Next) => {
    let jsonLength = -1;
    // Same answer as Hono's c.json (its default Content-Type, overridable by `headers`),
    // keeping the length of the text it serialises anyway.
    c.json = ((object: unknown, arg?: ContentfulStatusCode | ResponseInit, headers?: Record<string, string>) => {
      const text = JSON.stringify(object);
      jsonLength = text.length; // characters: at most the bytes, close enough for a threshold
      return c.body(text, arg as ContentfulStatusCode, { "Content-Type": "application/json", ...headers });
    }) as unknown as typeof c.json;
    await next();
    // Small JSON from c.json() above: nothing to read back from the answer.
    if (jsonLength >= 0 && goesOutUncompressed(jsonLength, threshold)) return;
    const headers = c.res.headers;
    const isJson = (headers.get("content-type") ?? "").startsWith("application/json");
    // JSON made elsewhere: measured by its Content-Length when it has one (cached text such
    // as the results snapshot); without one it is an error answer (Response.json), small too.
    const length = jsonLength >= 0 ? jsonLength : Number(headers.get("content-length") ?? 0);
    if (isJson && goesOutUncompressed(length, threshold)) return;
    await gzip(c, noop);
  };
}
