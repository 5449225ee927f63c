import { createFileRoute } from "@tanstack/react-router";
import { StationsPage } from "../../../screens/admin/StationsPage";

export const Route = createFileRoute("/_auth/admin/stations")({
  component: StationsPage,
});
