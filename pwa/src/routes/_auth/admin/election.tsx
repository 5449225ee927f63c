import { createFileRoute } from "@tanstack/react-router";
import { ElectionSettingsPage } from "../../../screens/admin/ElectionSettingsPage";

export const Route = createFileRoute("/_auth/admin/election")({
  component: ElectionSettingsPage,
});
