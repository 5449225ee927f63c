import { createFileRoute } from "@tanstack/react-router";
import { AdminPanelPage } from "../../../screens/admin/AdminPanelPage";

export const Route = createFileRoute("/_auth/admin/")({
  component: AdminPanelPage,
});
