/** Composes the API from its dependencies. `server.ts` wires real ones; tests wire fresh ones. */
import { Hono } from "hono";
import { messages } from "@evoting/shared";
import type { AppEnv, Deps } from "./deps.ts";
import { onError } from "./http/errors.ts";
import { apiMiddleware, type ServedApp } from "./http/pipeline.ts";
import { serveStatic } from "./http/static.ts";
import { chatRoutes } from "./chat/routes.ts";
import { realtimeRoutes } from "./realtime/routes.ts";
import { adminRoutes } from "./routes/admin/index.ts";
import { authRoutes } from "./routes/auth.ts";
import { photoRoutes } from "./routes/photos.ts";
import { voteHotRoutes, voteRoutes } from "./routes/vote.ts";
import { electionRoutes } from "./routes/election.ts";
import { stationRoutes } from "./routes/station.ts";
import { receiptRoutes } from "./routes/receipts.ts";
import { electionsRoutes } from "./routes/elections.ts";
import { nominationRoutes } from "./routes/nominations.ts";
import { beleniosPublicRoutes } from "./routes/belenios.ts";

export interface AppOptions {
  /** Folder of the built PWA to serve; omitted in API-only tests. */
  staticRoot?: string;
}

export function createApp(deps: Deps, options: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  app.onError((err, c) => onError(err, c, deps.log));

  // Every step here is mirrored by the fast path of the hot routes (http/pipeline.ts), which
  // refuses to start if another middleware runs before them.
  const steps = apiMiddleware(
    deps.log,
    // Candidate create and edit (PATCH) and an application to stand carry a photo, the roll
    // import a CSV file, a station's ballot file its sealed queue, a station ballot its verifiable
    // positions' encrypted ballots, a verifiable position's public credentials one per voter:
    // they set their own, larger limits.
    (c) =>
      (c.req.method === "PUT" && /^\/api\/admin\/positions\/[^/]+\/credentials$/.test(c.req.path)) ||
      (c.req.path.startsWith("/api/admin/candidates") && (c.req.method === "POST" || c.req.method === "PATCH")) ||
      (c.req.path === "/api/nominations" && c.req.method === "POST") ||
      (c.req.path === "/api/admin/voters/import" && c.req.method === "POST") ||
      (c.req.path === "/api/admin/stations/import" && c.req.method === "POST") ||
      (c.req.path === "/api/station/ballots" && c.req.method === "POST"),
  );
  app.use("*", steps.requestLog);
  app.use("*", steps.securityHeaders);

  const hot = voteHotRoutes(deps);
  const api = new Hono<AppEnv>();
  api.use("*", steps.noStore);
  api.use("*", steps.bodyLimit);
  api.get("/health", (c) => c.json({ status: "ok" }));
  api.route("/auth", authRoutes(deps));
  api.route("/admin", adminRoutes(deps));
  api.route("/vote/receipts", receiptRoutes(deps)); // before /vote: its own gate answers first
  api.route("/vote", voteRoutes(deps, hot));
  api.route("/election", electionRoutes(deps));
  api.route("/elections", electionsRoutes(deps));
  api.route("/nominations", nominationRoutes(deps));
  api.route("/station", stationRoutes(deps));
  api.route("/realtime", realtimeRoutes(deps));
  api.route("/chat", chatRoutes(deps));
  api.route("/photos", photoRoutes(deps));
  api.route("/positions", beleniosPublicRoutes(deps)); // the public ballot boxes, no sign-in
  api.all("*", (c) => c.json({ message: messages.notFound }, 404));

  // API answers are small JSON: gzip runs on the event loop, a cost not worth
  // a few hundred bytes (decision 0016), so only larger ones (long candidate lists)
  // are compressed (http/api-middleware.ts).
  app.use("*", steps.gzipApi);
  app.route("/api", api);
  if (options.staticRoot) serveStatic(app, options.staticRoot);
  app.all("*", (c) => c.json({ message: messages.notFound }, 404));
  // The listener (http/pipeline.ts) serves these two before Hono, built from the same definitions.
  return Object.assign(app, { hotRoutes: [hot.cast, hot.results] }) satisfies ServedApp;
}

export type App = ReturnType<typeof createApp>;
