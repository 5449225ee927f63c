import { createFileRoute } from "@tanstack/react-router";
import { requireAppArea } from "../auth/guards";
import { AppLayout } from "../components/layout/AppLayout";

/** Pathless layout: every route below it needs a session (unauthenticated → /login, replaced); officers go to /station but for Past Elections. */
export const Route = createFileRoute("/_auth")({
  beforeLoad: requireAppArea,
  component: AppLayout,
});
