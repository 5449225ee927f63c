import { createFileRoute } from "@tanstack/react-router";
import { resultsQuery } from "../../data/queries";
import { parseResultsTab, type ResultsTab } from "../../screens/results/tabs";
import { ResultsPage } from "../../screens/ResultsPage";

export const Route = createFileRoute("/_auth/results")({
  validateSearch: (search: Record<string, unknown>): { tab?: ResultsTab } => {
    const tab = parseResultsTab(search.tab);
    return tab === "overview" ? {} : { tab };
  },
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(resultsQuery());
  },
  component: ResultsPage,
});
