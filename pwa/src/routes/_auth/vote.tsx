import { createFileRoute } from "@tanstack/react-router";
import { ballotPositionsQuery, myVotesQuery } from "../../data/queries";
import { VotePage } from "../../screens/VotePage";
import { requireVoter } from "../../auth/guards";
import { oneTaskEach } from "../../lib/page-idle";

export const Route = createFileRoute("/_auth/vote")({
  beforeLoad: requireVoter,
  loader: ({ context: { queryClient } }) => {
    void oneTaskEach([() => queryClient.prefetchQuery(ballotPositionsQuery()), () => queryClient.prefetchQuery(myVotesQuery())]);
  },
  component: VotePage,
});
