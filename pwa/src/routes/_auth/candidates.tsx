import { createFileRoute } from "@tanstack/react-router";
import { allCandidatesQuery } from "../../data/queries";
import { CandidatesPage } from "../../screens/CandidatesPage";

export const Route = createFileRoute("/_auth/candidates")({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(allCandidatesQuery());
  },
  component: CandidatesPage,
});
