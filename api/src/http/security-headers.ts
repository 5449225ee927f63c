/**
 * Hono's secureHeaders(), at a fraction of its cost where it runs under @hono/node-server
 * (a measurable share of a vote's event loop; decision 0016). secureHeaders() sets a dozen headers on the answer
 * after the fact, each a `has` and a `set` on a web Headers object. Here the same headers,
 * worked out once by secureHeaders() itself, go on Node's own response before the route runs
 * (`setHeader`, a property store each): Node merges them with the answer's headers, and a
 * header the answer sets itself wins, exactly as secureHeaders({ overwrite: false }) does
 * (a photo's stricter CSP). Anywhere else (app.request() in tests, another runtime),
 * secureHeaders() itself runs.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { nodeResponseBeforeHeaders } from "./node-response.ts";

export type SecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;

/** The security headers on every answer (Hono's secureHeaders() options). */
export const SECURITY_HEADERS: SecureHeadersOptions & { overwrite: false } = {
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:"],
    connectSrc: ["'self'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    manifestSrc: ["'self'"],
    workerSrc: ["'self'"],
  },
  // HSTS only means something over HTTPS; browsers ignore it on plain HTTP.
  strictTransportSecurity: "max-age=31536000; includeSubDomains",
  crossOriginEmbedderPolicy: false,
  // Keep a stricter policy a route set itself (photos: `default-src 'none'; sandbox`).
  overwrite: false,
};

const probed = new WeakMap<SecureHeadersOptions, Promise<[string, string][]>>();

/**
 * The headers secureHeaders(options) puts on an answer that set none of its own, worked out
 * once per options object (the app's middleware and the fast path of http/pipeline.ts share one probe).
 */
export function headersOf(options: SecureHeadersOptions): Promise<[string, string][]> {
  let list = probed.get(options);
  if (!list) probed.set(options, (list = probe(options)));
  return list;
}

async function probe(options: SecureHeadersOptions): Promise<[string, string][]> {
  const app = new Hono().use(secureHeaders(options)).get("/", (c) => c.body(null, 204));
  const res = await app.request("/");
  return [...res.headers.entries()];
}

export function fastSecureHeaders(options: SecureHeadersOptions & { overwrite: false }): MiddlewareHandler {
  const fallback = secureHeaders(options);
  const probed = headersOf(options);
  let list: [string, string][] | null = null;
  void probed.then((l) => (list = l));
  return async (c, next) => {
    const outgoing = nodeResponseBeforeHeaders(c);
    if (!outgoing) return fallback(c, next);
    for (const [name, value] of list ?? (list = await probed)) outgoing.setHeader(name, value);
    await next();
  };
}
