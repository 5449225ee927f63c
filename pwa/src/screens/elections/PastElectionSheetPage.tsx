/**
 * `/elections/$id/print`: a declared election's results sheet as it was published at the
 * declaration, from its archive (the counts, each ranked count's stages, the verdicts, the CSV's
 * SHA-256 and the audit chain's head then), on the same printed layout as the live sheet.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { electionArchiveQuery } from "../../data/elections";
import { errorMessage } from "../../api/client";
import { buttonClass } from "../../components/ui/Button";
import { StateMessage } from "../../components/ui/Spinner";
import { PrintedSheet } from "../../components/results/PrintedSheet";

export function PastElectionSheetPage({ id }: { id: number }) {
  const archive = useQuery(electionArchiveQuery(id));
  if (archive.isPending) return <StateMessage busy>Preparing the results sheet...</StateMessage>;
  if (archive.isError) return <StateMessage>{errorMessage(archive.error, "Failed to load the results sheet")}</StateMessage>;
  const { election, sheet } = archive.data;
  return (
    <PrintedSheet
      sheet={sheet}
      election={election}
      declaredAt={election.declaredAt ?? sheet.producedAt}
      actions={
        <Link to="/elections/$id" params={{ id: String(id) }} className={buttonClass("secondary")}>
          Back to the election
        </Link>
      }
    />
  );
}
