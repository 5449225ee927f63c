import { createFileRoute, redirect } from "@tanstack/react-router";
import { session } from "../../lib/session";
import { allCandidatesQuery, resultsQuery } from "../../lib/queries";
import { HomePage } from "../../screens/HomePage";

export const Route = createFileRoute("/_auth/")({
  beforeLoad: () => {
    if (session.canViewAdmin()) throw redirect({ to: "/admin", replace: true });
  },
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(resultsQuery());
    void context.queryClient.prefetchQuery(allCandidatesQuery());
  },
  component: HomePage,
});
