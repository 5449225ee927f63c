/**
 * The printable results sheet, for the running election (`/admin/results/print`) and for a
 * declared one as published (`/elections/$id/print`): the election's title and window, when
 * the sheet was produced (or the results declared), registered voters, votes cast, turnout,
 * each position's table with its outcome and a ranked count's stages, and two SHA-256 digests:
 * of the CSV export and of the audit chain's head. A printed copy can be held against the
 * system later: the same results give the same CSV digest, and the chain head must still be in
 * the audit log. Prints on A4 with no navigation; the buttons are for the screen only.
 */
import type { ReactNode } from "react";
import { turnout, formatPercent, type ResultsSheet } from "@evoting/shared";
import { PositionTable } from "./PositionTable";
import { BallotBatchNotice } from "./BallotBatchNotice";
import { isProvisional } from "./provisional";
import { formatDateTime, formatInteger, localTimeZone } from "../../lib/format";
import { Button } from "../ui/Button";
import "./results-sheet.css"; // A4 page box; the browser's own header and footer stay the reader's choice

export interface SheetElection {
  title: string;
  subtitle?: string;
  startTime: string;
  endTime: string;
}

export function PrintedSheet({
  sheet,
  election,
  declaredAt,
  actions,
}: {
  sheet: ResultsSheet;
  /** Absent while the live settings load: the sheet still prints its results. */
  election?: SheetElection;
  /** A declared election's sheet: when its results were declared, the moment it was produced. */
  declaredAt?: string;
  /** Beside 'Print', on screen only: the way back, a refresh. */
  actions: ReactNode;
}) {
  const { results, producedAt, csvSha256, audit } = sheet;
  const zone = localTimeZone();
  const provisional = isProvisional(results);
  return (
    <main className="mx-auto max-w-[210mm] bg-white px-8 py-8 text-slate-900 print:max-w-none print:p-0">
      <div className="mb-6 flex flex-wrap gap-2 print:hidden">
        <Button onClick={() => window.print()}>Print</Button>
        {actions}
      </div>

      <header className="border-b-2 border-slate-900 pb-4">
        <p className="text-sm uppercase tracking-wide text-slate-600">{declaredAt ? "Declared results" : provisional ? "Provisional results" : "Official results"}</p>
        <h1 className="text-2xl font-bold">{election?.title ?? "Election Results"}</h1>
        {election?.subtitle && <p className="text-slate-700">{election.subtitle}</p>}
        {election && (
          <p className="mt-1 text-sm text-slate-700">
            Voting window: {formatDateTime(election.startTime)} – {formatDateTime(election.endTime)} ({zone})
          </p>
        )}
        {declaredAt ? (
          <p className="mt-1 text-sm text-slate-700">
            Results declared: <time dateTime={declaredAt}>{formatDateTime(declaredAt)}</time> ({zone})
          </p>
        ) : (
          <p className="mt-1 text-sm text-slate-700">
            Produced: <time dateTime={producedAt}>{formatDateTime(producedAt)}</time> ({zone})
          </p>
        )}
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

      {provisional && (
        <p role="note" className="my-4 border-2 border-slate-900 px-3 py-2 text-sm font-semibold">
          PROVISIONAL RESULTS: these figures may still change; nobody is elected until the results are declared.
        </p>
      )}
      {/* A live sheet printed while ballots wait for their group says so; a declaration added every one. */}
      {!declaredAt && <BallotBatchNotice results={results} />}
      <div className="space-y-6">
        {results.results.length === 0 ? <p>No positions.</p> : results.results.map((p) => <PositionTable key={p.positionId} result={p} provisional={provisional} />)}
      </div>

      {!provisional && <Signatures />}

      <footer className="mt-8 break-inside-avoid border-t-2 border-slate-900 pt-3 text-xs">
        <p className="font-semibold">Check this copy</p>
        <p className="mt-1">
          SHA-256 of the results CSV export: <code data-testid="csv-digest" className="break-all">{csvSha256}</code>
        </p>
        <p className="mt-1">
          Audit chain head (entry {audit.headSeq} of {audit.entries}
          {declaredAt ? ", at the declaration" : ""}): <code data-testid="audit-head" className="break-all">{audit.head}</code>
        </p>
      </footer>
    </main>
  );
}

/** The declared sheet's lines for the returning officer and two witnesses or candidates' agents to sign. */
function Signatures() {
  const line = (role: string) => (
    <div key={role} className="grid grid-cols-[1fr_1fr_9rem] gap-4 pt-8 text-xs">
      <p className="border-t border-slate-900 pt-1">{role}: name</p>
      <p className="border-t border-slate-900 pt-1">Signature</p>
      <p className="border-t border-slate-900 pt-1">Date and time</p>
    </div>
  );
  return (
    <section aria-label="Signatures" className="mt-8 break-inside-avoid">
      <h2 className="text-sm font-semibold">Certified by</h2>
      {["Returning officer", "Witness or agent 1", "Witness or agent 2"].map(line)}
    </section>
  );
}
