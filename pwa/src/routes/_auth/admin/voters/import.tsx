import { createFileRoute } from "@tanstack/react-router";
import { ImportVotersPage } from "../../../../screens/admin/ImportVotersPage";

export const Route = createFileRoute("/_auth/admin/voters/import")({
  component: ImportVotersPage,
});
