import { createFileRoute } from "@tanstack/react-router";
import { TrusteesPage } from "../../../screens/admin/verifiable/TrusteesPage";

export const Route = createFileRoute("/_auth/admin/trustees")({
  component: TrusteesPage,
});
