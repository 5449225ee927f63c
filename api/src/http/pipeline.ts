/**
 * The API under Node's HTTP server, with its two hottest calls answered before Hono.
 *
 * On polling day nearly every request is a vote or a results read. Through Hono each paid
 * for the request and context objects, the middleware chain (security headers, no-store, body
 * limit, gzip, session, role, media type, JSON, schema), a dozen `setHeader` calls and a
 * response object: a results answer cost ~0.13 ms of event loop against ~0.03 ms for a
 * hello-world. Here the happy path of each does only what the answer needs, with the very
 * same rules:
 *
 * - `GET /api/vote/results`: the session from memory, `results.bytesFor()` (the route's own
 *   rule), one precomputed header list and the snapshot's cached bytes.
 * - `POST /api/vote`: the session, the role, the declared length and media type, `JSON.parse`
 *   and `castVoteSchema`, then `castVoteRequest()`, the function the route itself calls. Its
 *   refusals (404, 409, 422…) are written as the route's error handler writes them.
 *
 * Whatever these do not serve goes to Hono, which answers exactly as before: no or an unknown
 * token (401), a role that may not (403), a body without a declared length, too large, of
 * another type, not JSON or failing the schema (the body already read is handed over as
 * `rawBody`, which @hono/node-server reads instead of the socket), results withheld (403), a
 * results answer large enough to gzip, a query string, and every other route. Status, body
 * and headers are the ones Hono gives (http/hot-routes.test.ts compares them over a port).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { HTTPException } from "hono/http-exception";
import { canVote, castVoteSchema } from "@evoting/shared";
import { API_GZIP_THRESHOLD, JSON_BODY_LIMIT, SECURITY_HEADERS, type App } from "../app.ts";
import type { Deps } from "../deps.ts";
import { castVoteRequest } from "../routes/vote.ts";
import type { Session } from "../services/auth/sessions.ts";
import { tokenOfAuthorization } from "./auth.ts";
import { unexpectedError } from "./errors.ts";
import { requestLines } from "./request-log.ts";
import { headersOf } from "./security-headers.ts";
import { isJsonType } from "./validate.ts";

const RESULTS_PATH = "/api/vote/results";
const VOTE_PATH = "/api/vote";

type Hono = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Node's request listener for the app (its `fetch`): the hot routes, then Hono. */
export async function nodeListener(fetch: App["fetch"], deps: Deps): Promise<RequestListener> {
  const hono: Hono = getRequestListener(fetch);
  // What every /api answer carries before the route's own headers: the list fastSecureHeaders()
  // sets and no-store (http/api-middleware.ts).
  const before = [...(await headersOf(SECURITY_HEADERS)), ["Cache-Control", "no-store"]].flat();
  const json = [...before, "Content-Type", "application/json"];

  const writeJson = (res: ServerResponse, status: number, bytes: Uint8Array) => {
    res.writeHead(status, [...json, "Content-Length", String(bytes.byteLength)]);
    res.end(bytes);
  };

  /** The session of a request that carries a live bearer token, or null (Hono answers 401). */
  const sessionOf = (req: IncomingMessage): Promise<Session | null> | null => {
    const token = tokenOfAuthorization(req.headers.authorization);
    return token ? deps.sessions.find(token, deps.clock.now()) : null;
  };

  async function results(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const session = await sessionOf(req);
    // Hono answers a station device's token (403) as every other refusal.
    if (!session || session.stationSessionId) return false;
    const bytes = await deps.results.bytesFor(session.user.role, deps.clock.now());
    if (!bytes || bytes.byteLength >= API_GZIP_THRESHOLD) return false;
    writeJson(res, 200, bytes);
    return true;
  }

  async function vote(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const length = Number(req.headers["content-length"]);
    if (!(length <= JSON_BODY_LIMIT) || req.headers["transfer-encoding"] !== undefined || !isJsonType(req.headers["content-type"])) return false;
    const session = await sessionOf(req);
    if (!session || session.stationSessionId || !canVote(session.user.role)) return false;
    const raw = await bodyOf(req);
    const parsed = castVoteSchema.safeParse(parseJson(raw));
    if (!parsed.success) {
      // Hono answers it (400 with the project's message and issues) from the body read here.
      (req as IncomingMessage & { rawBody?: Buffer }).rawBody = raw;
      return false;
    }
    let answer: { status: number; body: unknown };
    try {
      // Node joins a repeated header with ", " as Headers.get() does, so the key reads the same.
      answer = await castVoteRequest(deps, session.user, parsed.data, req.headers["idempotency-key"] as string | undefined);
    } catch (err) {
      await writeError(res, err);
      return true;
    }
    writeJson(res, answer.status, Buffer.from(JSON.stringify(answer.body)));
    return true;
  }

  /** A refusal as the app's error handler answers it (http/errors.ts onError). */
  async function writeError(res: ServerResponse, err: unknown) {
    if (err instanceof HTTPException) {
      const refusal = err.getResponse();
      const bytes = new Uint8Array(await refusal.arrayBuffer());
      res.writeHead(refusal.status, [...before, ...[...refusal.headers].flat(), "Content-Length", String(bytes.byteLength)]);
      res.end(bytes);
    } else writeJson(res, 500, Buffer.from(JSON.stringify(unexpectedError(deps.log, err))));
  }

  // An answer from here is logged as Hono's request log would (same route, same fields).
  const lines = requestLines(deps.log);
  const hot = (serve: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>, req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    return serve(req, res).then(
      (answered) => {
        if (!answered) void hono(req, res);
        else lines.write(lines.id(), req.method as string, req.url as string, res.statusCode, started);
      },
      (err: unknown) => {
        // Before the body was touched (a failed session read, say): Hono answers as it would
        // have, reading the body itself. A body cut off mid-read leaves nobody to answer.
        if (!res.headersSent && !req.readableDidRead) void hono(req, res);
        else res.destroy(err as Error);
      },
    );
  };

  return (req, res) => {
    const { url, method } = req;
    if (method === "POST" && url === VOTE_PATH) return hot(vote, req, res);
    if (method === "GET" && url === RESULTS_PATH) return hot(results, req, res);
    return hono(req, res);
  };
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined; // fails the schema: Hono answers 400 'Invalid JSON'
  }
}

/** The request's whole body (its declared length was checked against the limit first). */
function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => ok(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.once("error", fail);
    req.once("aborted", () => fail(new Error("request aborted")));
  });
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
