import { createFileRoute } from "@tanstack/react-router";
import { votersSearch } from "../../../../data/list-search";
import { ManageVotersPage } from "../../../../screens/admin/ManageVotersPage";

export const Route = createFileRoute("/_auth/admin/voters/")({
  validateSearch: votersSearch,
  component: ManageVotersPage,
});
