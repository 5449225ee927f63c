/**
 * /admin: every route below is checked here, once, on the server: 401 without a session,
 * 403 for voters and officers, and 403 for observers on anything but a read
 * (`requireAdminArea`). Each resource is its own sub-app in this folder.
 */
import { Hono } from "hono";
import type { AppEnv, Deps } from "../../deps.ts";
import { requireAdminArea, requireUser } from "../../http/auth.ts";
import { electionWriteGuard } from "../../http/election-guard.ts";
import { catalogRoutes } from "./catalog.ts";
import { editRoutes } from "./edits.ts";
import { electionAdminRoutes } from "./election.ts";
import { rollImportRoutes } from "./import.ts";
import { voterRoutes } from "./voters.ts";
import { auditRoutes } from "./audit.ts";
import { resultsRoutes } from "./results.ts";
import { stationAdminRoutes } from "./stations.ts";
import { staffRoutes } from "./staff.ts";
import { integrityRoutes } from "./integrity.ts";
import { electionLifecycleRoutes } from "./elections.ts";
import { nominationAdminRoutes } from "./nominations.ts";
import { beleniosAdminRoutes } from "../belenios.ts";
import { notificationRoutes } from "./notifications.ts";

export function adminRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .use(requireUser(deps), requireAdminArea, electionWriteGuard(deps, "/admin"))
    .route("/", catalogRoutes(deps))
    .route("/", editRoutes(deps))
    .route("/", electionAdminRoutes(deps))
    .route("/", rollImportRoutes(deps))
    .route("/", voterRoutes(deps))
    .route("/", auditRoutes(deps))
    .route("/", resultsRoutes(deps))
    .route("/", stationAdminRoutes(deps))
    .route("/", staffRoutes(deps))
    .route("/", integrityRoutes(deps))
    .route("/", electionLifecycleRoutes(deps))
    .route("/", nominationAdminRoutes(deps))
    .route("/", notificationRoutes(deps))
    .route("/", beleniosAdminRoutes(deps));
}
