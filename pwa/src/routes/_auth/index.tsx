import { createFileRoute, redirect } from "@tanstack/react-router";
import { session } from "../../auth/session";
import { allCandidatesQuery, resultsQuery } from "../../data/queries";
import { HomePage } from "../../screens/HomePage";
import { oneTaskEach } from "../../lib/page-idle";

export const Route = createFileRoute("/_auth/")({
  beforeLoad: () => {
    if (session.canViewAdmin()) throw redirect({ to: "/admin", replace: true });
  },
  loader: ({ context: { queryClient } }) => {
    void oneTaskEach([() => queryClient.prefetchQuery(resultsQuery()), () => queryClient.prefetchQuery(allCandidatesQuery())]);
  },
  component: HomePage,
});
