import { createFileRoute } from "@tanstack/react-router";
import { NotifyVotersPage } from "../../../screens/admin/NotifyVotersPage";

export const Route = createFileRoute("/_auth/admin/notifications")({
  component: NotifyVotersPage,
});
