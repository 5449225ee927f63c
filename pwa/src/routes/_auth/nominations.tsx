import { createFileRoute } from "@tanstack/react-router";
import { requireVoter } from "../../auth/guards";
import { NominationsPage } from "../../screens/NominationsPage";

/** Applying to stand and one's own applications: voters only (staff never stand). */
export const Route = createFileRoute("/_auth/nominations")({
  beforeLoad: requireVoter,
  component: NominationsPage,
});
