/**
 * The request pipeline: the steps every /api request passes, how a route is defined once and
 * served two ways, and Node's request listener.
 *
 * A hot route (the vote and the results read: nearly all of polling day's traffic) is ONE
 * definition (`defineRoute`: method, path, guard, body schema, idempotency key, handler). From
 * it come both its Hono handlers and its fast path, a plain Node handler that skips Hono's
 * request, context and response objects (they were half of a vote's event-loop CPU:
 * docs/decisions/0022-one-route-definition.md). Every step is one function that both call:
 *
 * | step | function |
 * |---|---|
 * | request log line | `requestLines` (http/request-log.ts) |
 * | security headers, no-store | `headersOf(SECURITY_HEADERS)`, `NO_STORE` |
 * | body limit (declared length) | `withinDeclaredLimit` (http/api-middleware.ts) |
 * | session | `sessionOf` (http/auth.ts) |
 * | role | the definition's `guard` |
 * | media type, JSON, schema | `checkJsonType`, `parseJson`, `checkSchema` (http/validate.ts) |
 * | idempotency key | `idempotencyKeyOf` (http/validate.ts) |
 * | gzip or not | `goesOutUncompressed` (http/api-middleware.ts) |
 * | error answer | `errorAnswer` (http/errors.ts) |
 *
 * The fast path hands a request to Hono only before reading its body: another method or path
 * (a query string, HEAD), a body without a declared length (Hono's bodyLimit() counts it as it
 * streams) and a GET answer large enough to gzip (compress() is Hono's).
 *
 * The app's own middleware comes from `apiMiddleware` below; `nodeListener` refuses to start
 * when Hono would run any other middleware on a hot route, so a step added to app.ts can never
 * silently skip the fast path.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Context, Hono, MiddlewareHandler } from "hono";
import { COMPOSED_HANDLER } from "hono/utils/constants";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodType, output } from "zod";
import type { AppEnv, AuthUser, Deps } from "../deps.ts";
import type { Logger } from "../log.ts";
import { API_GZIP_THRESHOLD, JSON_BODY_LIMIT, NO_STORE, apiBodyLimit, goesOutUncompressed, gzipLargeJson, noStoreByDefault, withinDeclaredLimit } from "./api-middleware.ts";
import { requireUser, sessionOf, type Guard } from "./auth.ts";
import { errorAnswer } from "./errors.ts";
import { requestLines, requestLog } from "./request-log.ts";
import { SECURITY_HEADERS, fastSecureHeaders, headersOf } from "./security-headers.ts";
import { checkJsonType, checkSchema, idempotencyKeyOf, parseJson } from "./validate.ts";

/** A route's answer: JSON to serialise, or JSON already serialised (a cached snapshot). */
export type Answer = { status: number; json: unknown } | { status: number; bytes: Uint8Array };

/** What a hot route's handler gets, every step before it passed. */
export interface RouteRequest<Body> {
  user: AuthUser;
  body: Body;
  /** The `Idempotency-Key` header, checked and lower-cased (routes with `idempotencyKey`). */
  idempotencyKey: string | undefined;
}

export interface RouteSpec<S extends ZodType | undefined> {
  method: "GET" | "POST";
  /** The whole path, as a request names it (`/api/vote`); where the route is mounted in Hono must agree (checked at start). */
  path: string;
  /** Who may, after the session (a voter, say): throws its refusal. */
  guard?: Guard;
  /** A JSON body and its schema. */
  body?: S;
  /** Reads the `Idempotency-Key` header. */
  idempotencyKey?: boolean;
  /**
   * The route itself; refusals throw (http/errors.ts `fail`). A POST's answer must stay under
   * API_GZIP_THRESHOLD: the fast path writes it as it is (a vote's is a few hundred bytes).
   */
  handle(request: RouteRequest<S extends ZodType ? output<S> : undefined>): Promise<Answer>;
}

/** A route defined once: `hono` is what the Hono router mounts; the listener builds the fast path from the rest. */
export interface RouteDefinition<S extends ZodType | undefined = ZodType | undefined> extends RouteSpec<S> {
  /** The session and guard, then the route: mount as `.get(path, ...hono)`. */
  readonly hono: readonly [MiddlewareHandler<AppEnv>, MiddlewareHandler<AppEnv>];
}

/** A route's definition, with its Hono side: the session and guard, then one handler for the body, the key and the answer. */
export function defineRoute<S extends ZodType | undefined>(deps: Pick<Deps, "sessions" | "clock">, spec: RouteSpec<S>): RouteDefinition<S> {
  type Body = S extends ZodType ? output<S> : undefined;
  const route: MiddlewareHandler<AppEnv> = async (c) => {
    let body = undefined as Body;
    if (spec.body) {
      checkJsonType(c.req.header("content-type"));
      body = checkSchema(spec.body, parseJson(new Uint8Array(await c.req.arrayBuffer()))) as Body;
    }
    const idempotencyKey = spec.idempotencyKey ? idempotencyKeyOf(c.req.header("idempotency-key")) : undefined;
    return answerWith(c, await spec.handle({ user: c.var.user, body, idempotencyKey }));
  };
  return { ...spec, hono: [requireUser(deps, { guard: spec.guard }), route] };
}

function answerWith(c: Context, answer: Answer): Response {
  const status = answer.status as ContentfulStatusCode;
  if ("json" in answer) return c.json(answer.json as object, status);
  return c.body(answer.bytes as Uint8Array<ArrayBuffer>, status, { "Content-Type": "application/json", "Content-Length": String(answer.bytes.byteLength) });
}

/** The middleware the fast path mirrors step for step; nothing else may run before a hot route. */
const mirrored = new WeakSet<MiddlewareHandler>();
const mirror = <M extends MiddlewareHandler>(middleware: M): M => {
  mirrored.add(middleware);
  return middleware;
};

/**
 * The app's own middleware, in the order app.ts mounts it. `ownBodyLimit` names the routes
 * that set a larger body limit of their own (uploads).
 */
export function apiMiddleware(log: Logger, ownBodyLimit: (c: Context) => boolean) {
  const gzip = gzipLargeJson(API_GZIP_THRESHOLD);
  return {
    requestLog: mirror(requestLog(requestLines(log))),
    securityHeaders: mirror(fastSecureHeaders(SECURITY_HEADERS)),
    // Only /api answers: static files are gzipped once, when first served (http/static.ts).
    gzipApi: mirror<MiddlewareHandler>((c, next) => (c.req.path.startsWith("/api/") ? gzip(c, next) : next())),
    noStore: mirror(noStoreByDefault),
    bodyLimit: mirror(apiBodyLimit(JSON_BODY_LIMIT, ownBodyLimit)),
  };
}

/** What the listener serves: the app and the hot routes defined for it. */
export interface ServedApp {
  fetch: Hono<AppEnv>["fetch"];
  router: Hono<AppEnv>["router"];
  hotRoutes: RouteDefinition[];
}

/**
 * Start-up check: Hono serves (method, path) with this definition's handlers, and runs no
 * middleware before them that the fast path does not mirror.
 */
function checkServedAlike(router: ServedApp["router"], route: RouteDefinition): void {
  // A sub-app with its own error handler is mounted wrapped; the wrapper names what it wraps.
  const handlers = router.match(route.method, route.path)[0].map(([[handler]]) => {
    const wrapped = (handler as unknown as Record<string, unknown>)[COMPOSED_HANDLER];
    return (wrapped ?? handler) as MiddlewareHandler;
  });
  const own = handlers.indexOf(route.hono[1]);
  const where = `${route.method} ${route.path}`;
  if (own < 0) throw new Error(`${where}: Hono does not serve this route from its definition; mount definition.hono at that path`);
  const others = handlers.slice(0, own).filter((h) => !mirrored.has(h) && h !== route.hono[0]);
  if (others.length > 0) {
    throw new Error(`${where}: Hono runs ${others.length} middleware the fast path does not; add the step to apiMiddleware() and the fast path (http/pipeline.ts)`);
  }
}

type Serve = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Node's request listener for the app: each hot route's fast path, everything else Hono's. */
export async function nodeListener(app: ServedApp, deps: Pick<Deps, "sessions" | "clock" | "log">): Promise<RequestListener> {
  for (const route of app.hotRoutes) checkServedAlike(app.router, route);
  const hono: Serve = getRequestListener(app.fetch);
  const lines = requestLines(deps.log);
  // Every /api answer starts with these, as Hono's middleware sets them before the route.
  const before = [...(await headersOf(SECURITY_HEADERS)), NO_STORE].flat();

  const write = (res: ServerResponse, status: number, headers: string[], bytes: Uint8Array) => {
    res.writeHead(status, [...before, ...headers, "Content-Length", String(bytes.byteLength)]);
    res.end(bytes);
  };
  const writeError = async (res: ServerResponse, err: unknown, id: string) => {
    const answer = errorAnswer(err, deps.log, id);
    write(res, answer.status, [...answer.headers].flat(), new Uint8Array(await answer.arrayBuffer()));
  };

  const authorizationCount = (rawHeaders: string[]) => {
    let n = 0;
    for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].length === 13 && rawHeaders[i].toLowerCase() === "authorization") n++;
    return n;
  };

  /** The route on Node: true when answered here, false when Hono should answer (nothing read yet). */
  const fastPath = (route: RouteDefinition) => {
    const readsBody = route.method !== "GET";
    return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
      if (readsBody && !withinDeclaredLimit(req.headers["content-length"], req.headers["transfer-encoding"], JSON_BODY_LIMIT)) return false;
      // Node keeps the first of several Authorization headers and Hono sees them joined (refused):
      // more than one is refused here too, so both paths answer alike.
      const { user } = await sessionOf(deps, authorizationCount(req.rawHeaders) > 1 ? undefined : req.headers.authorization);
      route.guard?.(user);
      let body: unknown;
      if (route.body) {
        checkJsonType(req.headers["content-type"]);
        body = checkSchema(route.body, parseJson(await bodyOf(req)));
      }
      // Node joins a repeated header with ", " as Headers.get() does, so the key reads the same.
      const idempotencyKey = route.idempotencyKey ? idempotencyKeyOf(req.headers["idempotency-key"] as string | undefined) : undefined;
      const answer = await route.handle({ user, body: body as never, idempotencyKey });
      const text = "json" in answer ? JSON.stringify(answer.json) : null;
      if (readsBody || goesOutUncompressed(text?.length ?? (answer as { bytes: Uint8Array }).bytes.byteLength, API_GZIP_THRESHOLD)) {
        write(res, answer.status, ["Content-Type", "application/json"], text === null ? (answer as { bytes: Uint8Array }).bytes : Buffer.from(text));
        return true;
      }
      return false; // a GET answer to gzip: Hono runs the route again and compresses it
    };
  };

  const routes = new Map(app.hotRoutes.map((route) => [`${route.method} ${route.path}`, fastPath(route)]));

  return (req, res) => {
    const serve = routes.get(`${req.method} ${req.url}`);
    if (!serve) return hono(req, res);
    const started = performance.now();
    const id = lines.id();
    const logged = () => lines.write(id, req.method as string, req.url as string, res.statusCode, started);
    return serve(req, res).then(
      (answered) => (answered ? logged() : hono(req, res)),
      async (err: unknown) => {
        if (res.headersSent) return res.destroy(err as Error);
        await writeError(res, err, id);
        logged();
      },
    );
  };
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
export async function listen(app: ServedApp, deps: Pick<Deps, "sessions" | "clock" | "log">, options: { port: number; hostname: string }): Promise<Server> {
  const server = createServer(await nodeListener(app, deps));
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(options.port, options.hostname, () => {
      server.off("error", fail);
      ok();
    });
  });
  return server;
}
