import { createFileRoute } from "@tanstack/react-router";
import { nominationsSearch } from "../../../data/list-search";
import { AdminNominationsPage } from "../../../screens/admin/AdminNominationsPage";

export const Route = createFileRoute("/_auth/admin/nominations")({
  validateSearch: nominationsSearch,
  component: AdminNominationsPage,
});
