import { createFileRoute } from "@tanstack/react-router";
import { ballotPositionsQuery, myVotesQuery } from "../../lib/queries";
import { VotePage } from "../../screens/VotePage";

export const Route = createFileRoute("/_auth/vote")({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(ballotPositionsQuery());
    void context.queryClient.prefetchQuery(myVotesQuery());
  },
  component: VotePage,
});
