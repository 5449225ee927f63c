import { createFileRoute } from "@tanstack/react-router";
import { SettingsPage } from "../../screens/SettingsPage";

export const Route = createFileRoute("/_auth/settings")({
  component: SettingsPage,
});
