import { createFileRoute } from "@tanstack/react-router";
import { ManageCandidatesPage } from "../../../screens/admin/ManageCandidatesPage";

export const Route = createFileRoute("/_auth/admin/manage-candidates")({
  component: ManageCandidatesPage,
});
