import { createFileRoute } from "@tanstack/react-router";
import { ManageVotersPage } from "../../../../screens/admin/ManageVotersPage";

export const Route = createFileRoute("/_auth/admin/voters/")({
  component: ManageVotersPage,
});
