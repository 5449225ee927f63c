import { createFileRoute, Outlet } from "@tanstack/react-router";
import { requireAdmin } from "../../../auth/guards";

/** Admin-only area: a signed-in non-admin is sent to / (history replaced). */
export const Route = createFileRoute("/_auth/admin")({
  beforeLoad: requireAdmin,
  component: Outlet,
});
