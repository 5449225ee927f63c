import { createFileRoute } from "@tanstack/react-router";
import { WhoVotedPage } from "../../../screens/admin/verifiable/WhoVotedPage";

/** Who voted for a verifiable position, after its close (docs/verifiable.md). `position` picks one. */
export const Route = createFileRoute("/_auth/admin/who-voted")({
  validateSearch: (search: Record<string, unknown>): { position?: string } =>
    typeof search.position === "string" && search.position.length <= 100 ? { position: search.position } : {},
  component: WhoVotedPage,
});
