import { createFileRoute } from "@tanstack/react-router";
import { prefetchArchive } from "../../../data/elections";
import { PastElectionPage } from "../../../screens/elections/PastElectionPage";

export const Route = createFileRoute("/_auth/elections/$id")({
  loader: ({ context, params }) => prefetchArchive(context.queryClient, params.id),
  component: function PastElectionRoute() {
    const { id } = Route.useParams();
    return <PastElectionPage id={Number(id)} />;
  },
});
