import { createFileRoute } from "@tanstack/react-router";
import { ManagePositionsPage } from "../../../screens/admin/ManagePositionsPage";

export const Route = createFileRoute("/_auth/admin/manage-positions")({
  component: ManagePositionsPage,
});
