import { createFileRoute } from "@tanstack/react-router";
import { CreatePositionPage } from "../../../screens/admin/CreatePositionPage";

export const Route = createFileRoute("/_auth/admin/positions")({
  component: CreatePositionPage,
});
