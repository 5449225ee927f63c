import { createFileRoute } from "@tanstack/react-router";
import { requireAuth } from "../lib/guards";
import { AppLayout } from "../components/layout/AppLayout";

/** Pathless layout: every route below it needs a session (unauthenticated → /login, replaced). */
export const Route = createFileRoute("/_auth")({
  beforeLoad: requireAuth,
  component: AppLayout,
});
