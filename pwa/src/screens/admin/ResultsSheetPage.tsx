/**
 * The running election's printable results sheet (`/admin/results/print`): the live results as
 * they stand, with the CSV export's digest and the audit chain's head now.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { electionQuery, resultsSheetQuery } from "../../data/accountability";
import { Button, buttonClass } from "../../components/ui/Button";
import { StateMessage } from "../../components/ui/Spinner";
import { PrintedSheet } from "../../components/results/PrintedSheet";

export function ResultsSheetPage() {
  const sheet = useQuery(resultsSheetQuery());
  const election = useQuery(electionQuery());

  if (sheet.isPending) return <StateMessage busy>Preparing the results sheet...</StateMessage>;
  if (sheet.isError) return <StateMessage>Failed to load the results sheet</StateMessage>;
  return (
    <PrintedSheet
      sheet={sheet.data}
      election={election.data ?? undefined}
      actions={
        <>
          <Link to="/results" className={buttonClass("secondary")}>
            Back to results
          </Link>
          <Button variant="secondary" onClick={() => void sheet.refetch()}>
            Refresh
          </Button>
        </>
      }
    />
  );
}
