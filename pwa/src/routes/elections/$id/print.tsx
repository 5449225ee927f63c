import { createFileRoute } from "@tanstack/react-router";
import { requireAppArea } from "../../../auth/guards";
import { electionArchiveQuery } from "../../../api/elections";
import { PastElectionSheetPage } from "../../../screens/elections/PastElectionSheetPage";

/** A declared election's printable results sheet: outside the signed-in layout (no navigation to print); whoever may open the archive. */
export const Route = createFileRoute("/elections/$id/print")({
  beforeLoad: () => requireAppArea(),
  loader: ({ context, params }) => {
    const id = Number(params.id);
    if (Number.isInteger(id) && id > 0) void context.queryClient.prefetchQuery(electionArchiveQuery(id));
  },
  component: function PastElectionSheetRoute() {
    const { id } = Route.useParams();
    return <PastElectionSheetPage id={Number(id)} />;
  },
});
