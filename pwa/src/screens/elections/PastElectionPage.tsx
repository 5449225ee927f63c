import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { turnout, formatPercent } from "@evoting/shared";
import { electionArchiveQuery } from "../../data/elections";
import { errorMessage } from "../../api/client";
import { formatDateTime, formatInteger } from "../../lib/format";
import { saveFile } from "../../lib/save-file";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card, CardHeader } from "../../components/ui/Card";
import { Button, buttonClass } from "../../components/ui/Button";
import { Icon } from "../../components/ui/Icon";
import { StateMessage } from "../../components/ui/Spinner";
import { FieldShell, inputClass } from "../../components/ui/Field";
import { PositionTable } from "../../components/results/PositionTable";

/**
 * /elections/$id: one declared election as it was published: its results (each position's
 * table, as on the printed sheet), the results CSV with its SHA-256 and the audit chain's head
 * at the declaration, and every position's counted-ballot list to find a receipt in.
 */
export function PastElectionPage({ id }: { id: number }) {
  const archive = useQuery(electionArchiveQuery(id));
  const [search, setSearch] = useState("");
  if (archive.isPending) return <StateMessage busy>Loading the election...</StateMessage>;
  if (archive.isError) return <StateMessage>{errorMessage(archive.error, "Failed to load the election")}</StateMessage>;
  const { election, sheet, receipts, resultsCsv, resultsSha256, audit } = archive.data;
  const { results } = sheet;
  const term = search.trim().toUpperCase();
  return (
    <div className="space-y-6">
      <PageHeader
        title={election.title}
        description={`${election.subtitle ? `${election.subtitle}. ` : ""}Voting ${formatDateTime(election.startTime)} to ${formatDateTime(election.endTime)}; results declared ${election.declaredAt ? formatDateTime(election.declaredAt) : ""}.`}
        actions={
          <Link to="/elections" className="focus-ring text-sm font-medium text-indigo-800 underline">
            All past elections
          </Link>
        }
      />
      <Card>
        <CardHeader title="Results" description={`${formatInteger(results.totalVotesCast)} of ${formatInteger(results.totalRegisteredVoters)} registered voters voted (${formatPercent(turnout(results.totalVotesCast, results.totalRegisteredVoters))}).`} />
        <div className="space-y-6 px-5 py-4">
          {results.results.length === 0 ? <p className="text-sm text-slate-700">This election had no positions.</p> : results.results.map((r) => <PositionTable key={r.positionId} result={r} download />)}
        </div>
      </Card>
      <Card>
        <CardHeader
          title="Results Sheet"
          description="Check a printed copy against these: the same results give the same CSV digest, and the chain head is in the audit log."
          action={
            <div className="flex flex-wrap gap-2">
              <Button size="sm" variant="secondary" onClick={() => saveFile(new Blob([resultsCsv], { type: "text/csv" }), `results-election-${election.id}.csv`)}>
                Download results CSV
              </Button>
              <Link to="/elections/$id/print" params={{ id: String(election.id) }} className={buttonClass("secondary", "sm")}>
                <Icon name="receipt" className="size-4" />
                Print Results
              </Link>
            </div>
          }
        />
        <dl className="grid gap-2 px-5 py-4 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-slate-700">Results CSV SHA-256</dt>
          <dd className="break-all font-mono" data-testid="archive-csv-sha256">{resultsSha256}</dd>
          <dt className="font-medium text-slate-700">Audit chain head</dt>
          <dd className="break-all font-mono">
            entry {audit.seq}: {audit.hash}
          </dd>
          <dt className="font-medium text-slate-700">Sheet produced</dt>
          <dd>{formatDateTime(sheet.producedAt)}</dd>
        </dl>
      </Card>
      <Card>
        <CardHeader title="Counted Ballots" description="The receipt code of every ballot counted, per position. Find yours: no code shows anyone's choice." />
        <div className="space-y-4 px-5 py-4">
          <FieldShell label="Find a receipt">
            {({ id: inputId }) => <input id={inputId} className={inputClass} placeholder="e.g. 7K2M9Q4XTB" value={search} onChange={(e) => setSearch(e.target.value)} />}
          </FieldShell>
          {receipts.map((list) => {
            const shown = term ? list.receipts.filter((c) => c.includes(term)) : list.receipts;
            return (
              <section key={list.positionId}>
                <h3 className="font-semibold text-slate-900">
                  {list.positionTitle} <span className="font-normal text-slate-600">({formatInteger(list.total)} counted)</span>
                </h3>
                {shown.length === 0 ? (
                  <p className="text-sm text-slate-600">{term ? "No receipt matches." : "No ballots were counted."}</p>
                ) : (
                  <ul className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm sm:grid-cols-4" aria-label={`Receipts for ${list.positionTitle}`}>
                    {shown.map((code) => (
                      <li key={code}>{code}</li>
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        </div>
      </Card>
    </div>
  );
}
