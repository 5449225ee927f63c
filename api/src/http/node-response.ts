/**
 * The Node response behind a request when the app runs under @hono/node-server
 * (its documented `HttpBindings`: `c.env.outgoing`), or undefined (app.request() in tests, another runtime). Used where
 * writing to Node directly is cheaper or needed: security and cache headers set before the
 * route (http/security-headers.ts, http/api-middleware.ts), and the SSE streams (realtime/hub.ts).
 */
import type { ServerResponse } from "node:http";
import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";

export function isNodeResponse(value: unknown): value is ServerResponse {
  return typeof value === "object" && value !== null && "writeHead" in value && "writableLength" in value;
}

export function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  return isNodeResponse(outgoing) ? outgoing : undefined;
}

/** The Node response while its headers can still be set (undefined once sent, or outside Node). */
export function nodeResponseBeforeHeaders(c: Context): ServerResponse | undefined {
  const outgoing = nodeResponse(c);
  return outgoing && !outgoing.headersSent ? outgoing : undefined;
}
