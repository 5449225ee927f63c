import { createFileRoute } from "@tanstack/react-router";
import { CredentialAuthorityPage } from "../../../screens/admin/verifiable/CredentialAuthorityPage";

export const Route = createFileRoute("/_auth/admin/credentials")({
  component: CredentialAuthorityPage,
});
