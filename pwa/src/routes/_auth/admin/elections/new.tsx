import { createFileRoute } from "@tanstack/react-router";
import { StartElectionPage } from "../../../../screens/admin/StartElectionPage";

export const Route = createFileRoute("/_auth/admin/elections/new")({
  component: StartElectionPage,
});
