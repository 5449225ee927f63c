import { createFileRoute } from "@tanstack/react-router";
import { DecryptPage } from "../../../screens/admin/verifiable/DecryptPage";

export const Route = createFileRoute("/_auth/admin/decrypt")({
  component: DecryptPage,
});
