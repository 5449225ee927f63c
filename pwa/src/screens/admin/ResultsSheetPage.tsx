/**
 * The printable results sheet: the election's title and window, when the sheet
 * was produced, registered voters, votes cast, turnout, each position's table with the
 * elected candidate or 'Tie', and two SHA-256 digests: of the CSV export (the same bytes
 * `GET /admin/results.csv` answers) and of the audit chain's head. A printed copy can be held
 * against the system later: the same results give the same CSV digest, and the chain head
 * must still be in the audit log. Prints on A4 with no navigation.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { turnout, formatPercent } from "@evoting/shared";
import { PositionTable } from "../../components/results/PositionTable";
import { electionQuery, resultsSheetQuery } from "../../api/accountability";
import { formatDateTime, formatInteger, localTimeZone } from "../../lib/format";
import { Button, buttonClass } from "../../components/ui/Button";
import { StateMessage } from "../../components/ui/Spinner";
import { BallotBatchNotice } from "../../components/results/BallotBatchNotice";
import "./results-sheet.css"; // A4 page box; the browser's own header and footer stay the reader's choice


export function ResultsSheetPage() {
  const sheet = useQuery(resultsSheetQuery());
  const election = useQuery(electionQuery());

  if (sheet.isPending) return <StateMessage busy>Preparing the results sheet...</StateMessage>;
  if (sheet.isError) return <StateMessage>Failed to load the results sheet</StateMessage>;
  const { results, producedAt, csvSha256, audit } = sheet.data;
  const settings = election.data;
  const positions = results.results;

  return (
    <main className="mx-auto max-w-[210mm] bg-white px-8 py-8 text-slate-900 print:max-w-none print:p-0">
      <div className="mb-6 flex flex-wrap gap-2 print:hidden">
        <Button onClick={() => window.print()}>Print</Button>
        <Link to="/results" className={buttonClass("secondary")}>
          Back to results
        </Link>
        <Button variant="secondary" onClick={() => void sheet.refetch()}>
          Refresh
        </Button>
      </div>

      <header className="border-b-2 border-slate-900 pb-4">
        <p className="text-sm uppercase tracking-wide text-slate-600">Official results</p>
        <h1 className="text-2xl font-bold">{settings?.title ?? "Election Results"}</h1>
        {settings?.subtitle && <p className="text-slate-700">{settings.subtitle}</p>}
        {settings && (
          <p className="mt-1 text-sm text-slate-700">
            Voting window: {formatDateTime(settings.startTime)} – {formatDateTime(settings.endTime)} ({localTimeZone()})
          </p>
        )}
        <p className="mt-1 text-sm text-slate-700">
          Produced: <time dateTime={producedAt}>{formatDateTime(producedAt)}</time> ({localTimeZone()})
        </p>
      </header>

      <dl className="my-5 grid grid-cols-3 gap-4 text-center">
        <div className="rounded-lg border border-slate-300 p-3">
          <dt className="text-xs uppercase text-slate-600">Registered voters</dt>
          <dd className="text-xl font-semibold tabular-nums">{formatInteger(results.totalRegisteredVoters)}</dd>
        </div>
        <div className="rounded-lg border border-slate-300 p-3">
          <dt className="text-xs uppercase text-slate-600">Votes cast</dt>
          <dd className="text-xl font-semibold tabular-nums">{formatInteger(results.totalVotesCast)}</dd>
        </div>
        <div className="rounded-lg border border-slate-300 p-3">
          <dt className="text-xs uppercase text-slate-600">Turnout</dt>
          <dd className="text-xl font-semibold tabular-nums">{formatPercent(turnout(results.totalVotesCast, results.totalRegisteredVoters))}</dd>
        </div>
      </dl>

      {/* A sheet printed while ballots wait for their group says so. */}
      <BallotBatchNotice results={results} />
      <div className="space-y-6">
        {positions.length === 0 ? <p>No positions.</p> : positions.map((p) => <PositionTable key={p.positionId} result={p} />)}
      </div>

      <footer className="mt-8 break-inside-avoid border-t-2 border-slate-900 pt-3 text-xs">
        <p className="font-semibold">Check this copy</p>
        <p className="mt-1">
          SHA-256 of the results CSV export: <code data-testid="csv-digest" className="break-all">{csvSha256}</code>
        </p>
        <p className="mt-1">
          Audit chain head (entry {audit.headSeq} of {audit.entries}): <code data-testid="audit-head" className="break-all">{audit.head}</code>
        </p>
      </footer>
    </main>
  );
}
