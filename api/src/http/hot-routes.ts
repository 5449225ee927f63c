/**
 * The API under Node's HTTP server, with the hottest read answered before Hono (issue 13).
 *
 * On polling day every open results page asks for `GET /api/vote/results` and the answer is
 * the same cached bytes for everyone allowed to see them (services/results.ts). Through Hono
 * that answer cost ~0.13 ms of event loop against ~0.03 ms for a hello-world: the request and
 * context objects, the middleware chain, a dozen `setHeader` calls and the response object.
 * Here the happy path reads the session from memory, asks `results.bytesFor()` (the route's
 * own rule) and writes one precomputed header list and the bytes.
 *
 * Anything else goes to Hono untouched, which answers it exactly as before: no or an unknown
 * token (401), results withheld from this role (403), a query string, HEAD, an answer large
 * enough to be gzipped, and every other route. The answer is the one Hono gives byte for
 * byte in status, body and headers (http/headers.test.ts compares them over a real port).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { API_GZIP_THRESHOLD, SECURITY_HEADERS, type App } from "../app.ts";
import type { Deps } from "../deps.ts";
import { findSession } from "../services/sessions.ts";
import { tokenOfAuthorization } from "./auth.ts";
import { headersOf } from "./security-headers.ts";

const RESULTS_PATH = "/api/vote/results";

/** Node's request listener for the app (its `fetch`): the hot route, then Hono. */
export async function nodeListener(fetch: App["fetch"], deps: Deps): Promise<RequestListener> {
  const hono = getRequestListener(fetch);
  // The same list fastSecureHeaders() sets, then what the results route adds (api-middleware.ts: no-store).
  const fixed = [...(await headersOf(SECURITY_HEADERS)), ["Cache-Control", "no-store"], ["Content-Type", "application/json"]].flat();

  /** True when it answered; false leaves the request to Hono. */
  async function results(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const token = tokenOfAuthorization(req.headers.authorization);
    if (!token) return false;
    const now = deps.clock.now();
    const session = await findSession(deps.database, token, now);
    if (!session) return false;
    const bytes = await deps.results.bytesFor(session.user.role, now);
    if (!bytes || bytes.byteLength >= API_GZIP_THRESHOLD) return false;
    res.writeHead(200, [...fixed, "Content-Length", String(bytes.byteLength)]);
    res.end(bytes);
    return true;
  }

  return (req, res) => {
    if (req.method !== "GET" || req.url !== RESULTS_PATH) return hono(req, res);
    results(req, res).then(
      (answered) => {
        if (!answered) void hono(req, res);
      },
      // A failure before anything was written: Hono answers it as it would have (its error handler).
      () => {
        if (res.headersSent) res.destroy();
        else void hono(req, res);
      },
    );
  };
}

/** Listens as @hono/node-server's serve() does, with the listener above. */
export async function listen(app: App, deps: Deps, options: { port: number; hostname: string }): Promise<Server> {
  const server = createServer(await nodeListener(app.fetch, deps));
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(options.port, options.hostname, () => {
      server.off("error", fail);
      ok();
    });
  });
  return server;
}
