import { createFileRoute } from "@tanstack/react-router";
import { CreateCandidatePage } from "../../../screens/admin/CreateCandidatePage";

export const Route = createFileRoute("/_auth/admin/candidates")({
  component: CreateCandidatePage,
});
