import { createFileRoute } from "@tanstack/react-router";
import { electionArchiveQuery } from "../../../api/elections";
import { PastElectionPage } from "../../../screens/elections/PastElectionPage";

export const Route = createFileRoute("/_auth/elections/$id")({
  loader: ({ context, params }) => {
    const id = Number(params.id);
    if (Number.isInteger(id) && id > 0) void context.queryClient.prefetchQuery(electionArchiveQuery(id));
  },
  component: function PastElectionRoute() {
    const { id } = Route.useParams();
    return <PastElectionPage id={Number(id)} />;
  },
});
