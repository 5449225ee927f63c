/** Composes the API from its dependencies. `server.ts` wires real ones; tests wire fresh ones. */
import { Hono } from "hono";
import { messages } from "@evoting/shared";
import type { AppEnv, Deps } from "./deps.ts";
import { apiBodyLimit, gzipLargeJson, noStoreByDefault } from "./http/api-middleware.ts";
import { fail, onError } from "./http/errors.ts";
import { requestLines, requestLog } from "./http/request-log.ts";
import { fastSecureHeaders, type SecureHeadersOptions } from "./http/security-headers.ts";
import { serveStatic } from "./http/static.ts";
import { chatRoutes } from "./chat/routes.ts";
import { realtimeRoutes } from "./realtime/routes.ts";
import { adminRoutes } from "./routes/admin/index.ts";
import { authRoutes } from "./routes/auth.ts";
import { photoRoutes } from "./routes/photos.ts";
import { voteRoutes } from "./routes/vote.ts";
import { electionRoutes } from "./routes/election.ts";
import { stationRoutes } from "./routes/station.ts";
import { receiptRoutes } from "./routes/receipts.ts";
import { electionsRoutes } from "./routes/elections.ts";
import { nominationRoutes } from "./routes/nominations.ts";
import { HashQueueFull } from "./security/passwords.ts";

/** JSON bodies here are small; only candidate uploads are larger (their own limit). */
export const JSON_BODY_LIMIT = 64 * 1024;

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

/** API JSON answers smaller than this go out uncompressed (http/api-middleware.ts). */
export const API_GZIP_THRESHOLD = 16 * 1024;

export interface AppOptions {
  /** Folder of the built PWA to serve; omitted in API-only tests. */
  staticRoot?: string;
}

export function createApp(deps: Deps, options: AppOptions = {}) {
  const app = new Hono<AppEnv>();

  app.onError((err, c) => {
    if (err instanceof HashQueueFull) {
      return c.json({ message: messages.serverBusy }, 503, { "Retry-After": "2" });
    }
    return onError(err, c, deps.log);
  });

  app.use("*", requestLog(requestLines(deps.log)));
  app.use("*", fastSecureHeaders(SECURITY_HEADERS));

  const api = new Hono<AppEnv>();
  api.use("*", noStoreByDefault);
  api.use(
    "*",
    apiBodyLimit(
      JSON_BODY_LIMIT,
      () => fail(413, messages.bodyTooLarge),
      // Candidate create and edit (PATCH) and an application to stand carry a photo, the roll
      // import a CSV file, a station's ballot file its sealed queue: they set their own, larger limits.
      (c) =>
        (c.req.path.startsWith("/api/admin/candidates") && (c.req.method === "POST" || c.req.method === "PATCH")) ||
        (c.req.path === "/api/nominations" && c.req.method === "POST") ||
        (c.req.path === "/api/admin/voters/import" && c.req.method === "POST") ||
        (c.req.path === "/api/admin/stations/import" && c.req.method === "POST"),
    ),
  );
  api.get("/health", (c) => c.json({ status: "ok" }));
  api.route("/auth", authRoutes(deps));
  api.route("/admin", adminRoutes(deps));
  api.route("/vote/receipts", receiptRoutes(deps)); // before /vote: its own gate answers first
  api.route("/vote", voteRoutes(deps));
  api.route("/election", electionRoutes(deps));
  api.route("/elections", electionsRoutes(deps));
  api.route("/nominations", nominationRoutes(deps));
  api.route("/station", stationRoutes(deps));
  api.route("/realtime", realtimeRoutes(deps));
  api.route("/chat", chatRoutes(deps));
  api.route("/photos", photoRoutes(deps));
  api.all("*", (c) => c.json({ message: messages.notFound }, 404));

  // API answers are small JSON: gzip runs on the event loop (~1 ms per answer in
  // bench/rush.ts) to save a few hundred bytes, so only larger ones (long candidate lists)
  // are compressed (http/api-middleware.ts). Static files are gzipped once, when first
  // served, and kept (http/static.ts).
  const gzipApi = gzipLargeJson(API_GZIP_THRESHOLD);
  app.use("*", (c, next) => (c.req.path.startsWith("/api/") ? gzipApi(c, next) : next()));
  app.route("/api", api);
  if (options.staticRoot) serveStatic(app, options.staticRoot);
  app.all("*", (c) => c.json({ message: messages.notFound }, 404));
  return app;
}

export type App = ReturnType<typeof createApp>;
