import { createFileRoute } from "@tanstack/react-router";
import { requireAppArea } from "../../../auth/guards";
import { prefetchArchive } from "../../../data/elections";
import { PastElectionSheetPage } from "../../../screens/elections/PastElectionSheetPage";

/** A declared election's printable results sheet: outside the signed-in layout (no navigation to print); whoever may open the archive. */
export const Route = createFileRoute("/elections/$id/print")({
  beforeLoad: ({ location }) => requireAppArea({ location }),
  loader: ({ context, params }) => prefetchArchive(context.queryClient, params.id),
  component: function PastElectionSheetRoute() {
    const { id } = Route.useParams();
    return <PastElectionSheetPage id={Number(id)} />;
  },
});
