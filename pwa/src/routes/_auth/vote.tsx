import { createFileRoute } from "@tanstack/react-router";
import { ballotPositionsQuery, myVotesQuery } from "../../lib/queries";
import { VotePage } from "../../screens/VotePage";
import { requireVoter } from "../../lib/guards";

export const Route = createFileRoute("/_auth/vote")({
  beforeLoad: requireVoter,
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(ballotPositionsQuery());
    void context.queryClient.prefetchQuery(myVotesQuery());
  },
  component: VotePage,
});
