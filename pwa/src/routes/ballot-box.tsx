import { createFileRoute } from "@tanstack/react-router";
import { BallotBoxPage } from "../screens/BallotBoxPage";

/** The public Ballot Box of verifiable positions: no sign-in (docs/verifiable.md). `tracker` pre-fills the search. */
export const Route = createFileRoute("/ballot-box")({
  validateSearch: (search: Record<string, unknown>): { tracker?: string } =>
    typeof search.tracker === "string" && search.tracker.length <= 100 ? { tracker: search.tracker } : {},
  component: BallotBoxPage,
});
