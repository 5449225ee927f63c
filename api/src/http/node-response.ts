/**
 * The Node response behind a request when the app runs under @hono/node-server (its
 * documented `HttpBindings`: `c.env.outgoing`), or undefined (app.request() in tests, another
 * runtime). Only the SSE streams use it (realtime/hub.ts): they write their frames straight to
 * the socket and answer Hono with RESPONSE_ALREADY_SENT.
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
