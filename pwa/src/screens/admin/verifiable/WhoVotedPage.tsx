/**
 * Who Voted (docs/verifiable.md, docs/security.md): after a verifiable position's close (with
 * the offline grace), the voters who cast a ballot for it, never how, beside the number of
 * ballots on its public ballot box. A credential authority colluding with the server could
 * cast ballots for voters who never vote; published, this list lets each of them say so, and a
 * board holding more ballots than voters listed shows it too. Search, a CSV and a printout
 * (the whole list, whatever the search) for the notice board.
 */
import { useEffect, useMemo, useState } from "react";
import { flushSync } from "react-dom";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { toCsv, type Position } from "@evoting/shared";
import { ApiRequestError, errorMessage } from "../../../api/client";
import type { WhoVoted } from "../../../api/verifiable-admin";
import { verifiablePositionsQuery, whoVotedQuery } from "../../../data/verifiable-admin";
import { electionQuery } from "../../../data/election";
import { useNow } from "../../../hooks/use-now";
import { formatDateTime, formatInteger, localTimeZone } from "../../../lib/format";
import { saveFile } from "../../../lib/save-file";
import { votingClosedText } from "../../../lib/voting-closed";
import { BackToAdminButton } from "../../../components/admin/BackToAdminButton";
import { ManageTableHead } from "../../../components/admin/ManageTable";
import { Button } from "../../../components/ui/Button";
import { Card, CardHeader } from "../../../components/ui/Card";
import { FieldShell, inputClass } from "../../../components/ui/Field";
import { Icon } from "../../../components/ui/Icon";
import { PageHeader } from "../../../components/ui/PageHeader";
import { StateMessage } from "../../../components/ui/Spinner";

/** Rows per screen page: a roll of thousands stays quick to draw; the printout has every row. */
export const WHO_VOTED_PAGE_SIZE = 100;

const plural = (n: number, one: string, many: string) => `${formatInteger(n)} ${n === 1 ? one : many}`;
const slug = (title: string) => title.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "position";

export function WhoVotedPage() {
  const search = useSearch({ strict: false }) as { position?: string };
  const navigate = useNavigate();
  const positions = useQuery(verifiablePositionsQuery());
  const election = useQuery(electionQuery());
  const now = useNow(30_000);
  const graceMs = (election.data?.voteGraceMinutes ?? 0) * 60_000;
  const list = positions.data ?? [];
  // Unless one is asked for, the first whose list is out.
  const position = list.find((p) => p._id === search.position) ?? list.find((p) => Date.parse(p.endTime) + graceMs <= now) ?? list[0];

  return (
    <div className="space-y-6">
      <div className="print:hidden">
        <PageHeader
          title="Who Voted"
          description="After a verifiable position closes: who cast a ballot for it, never how. Publish the list so that every voter can check they are not on it if they did not vote."
          actions={<BackToAdminButton />}
        />
      </div>
      {positions.isPending ? (
        <Card>
          <StateMessage busy>Loading positions...</StateMessage>
        </Card>
      ) : positions.isError ? (
        <Card>
          <StateMessage>{errorMessage(positions.error, "Failed to load the positions")}</StateMessage>
        </Card>
      ) : !position ? (
        <Card>
          <StateMessage>No verifiable position yet. Tick 'Verifiable ballot' on Create Positions or Edit Position.</StateMessage>
        </Card>
      ) : (
        <>
          <div className="print:hidden">
            <FieldShell label="Position">
              {({ id }) => (
                <select
                  id={id}
                  className={`${inputClass} sm:max-w-sm`}
                  value={position._id}
                  onChange={(e) => void navigate({ to: ".", search: { position: e.target.value }, replace: true })}
                >
                  {list.map((p) => (
                    <option key={p._id} value={p._id}>
                      {p.title}
                    </option>
                  ))}
                </select>
              )}
            </FieldShell>
          </div>
          <WhoVotedList key={position._id} position={position} electionTitle={election.data?.title} graceMinutes={election.data?.voteGraceMinutes} now={now} />
        </>
      )}
    </div>
  );
}

function WhoVotedList({ position, electionTitle, graceMinutes, now }: { position: Position; electionTitle?: string; graceMinutes?: number; now: number }) {
  const query = useQuery(whoVotedQuery(position._id));
  const [term, setTerm] = useState("");
  const [page, setPage] = useState(1);
  const voters = query.data?.voters;
  const needle = term.trim().toLowerCase();
  const matches = useMemo(
    () => (voters && needle ? voters.filter((v) => v.matricNumber.toLowerCase().includes(needle) || v.name.toLowerCase().includes(needle)) : (voters ?? [])),
    [voters, needle],
  );
  const pages = Math.max(1, Math.ceil(matches.length / WHO_VOTED_PAGE_SIZE));
  const shownPage = Math.min(page, pages);
  const first = (shownPage - 1) * WHO_VOTED_PAGE_SIZE;
  const rows = matches.slice(first, first + WHO_VOTED_PAGE_SIZE);
  const printing = usePrintedList(Boolean(query.data));

  if (query.isPending) {
    return (
      <Card>
        <StateMessage busy>Loading who voted...</StateMessage>
      </Card>
    );
  }
  if (query.isError) {
    const notYet = query.error instanceof ApiRequestError && query.error.status === 409;
    const closing = votingClosedText(position.endTime, graceMinutes, now);
    return (
      <Card>
        <StateMessage busy={query.isFetching}>
          <p>{errorMessage(query.error, "Failed to load who voted")}</p>
          {notYet && (
            <p className="mt-1 text-sm">
              {closing ?? (now < Date.parse(position.endTime) ? `Voting for ${position.title} closes ${formatDateTime(position.endTime)} (${localTimeZone()}).` : null)}
            </p>
          )}
          <Button className="mt-4" variant="secondary" size="sm" disabled={query.isFetching} onClick={() => void query.refetch()}>
            Check again
          </Button>
        </StateMessage>
      </Card>
    );
  }

  const data = query.data;
  const downloadCsv = () => {
    const csv = toCsv(
      ["matricNumber", "name"],
      data.voters.map((v) => [v.matricNumber, v.name]),
    );
    saveFile(new Blob([csv], { type: "text/csv;charset=utf-8" }), `who-voted-${slug(data.positionTitle)}.csv`);
  };
  return (
    <>
      <Card className="overflow-hidden print:hidden">
        <CardHeader
          title={`Who voted: ${data.positionTitle}`}
          description={<Counts data={data} />}
          action={
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onClick={downloadCsv}>
                <Icon name="download" className="size-4" />
                Download CSV
              </Button>
              <Button variant="secondary" onClick={() => window.print()}>
                Print
              </Button>
            </div>
          }
        />
        <BoardCheck data={data} />
        {data.voters.length === 0 ? (
          <StateMessage>No voter cast a ballot for this position.</StateMessage>
        ) : (
          <>
            <div role="search" aria-label="Find a voter" className="px-5 pt-4">
              <FieldShell label="Search" hint="Matric number or name">
                {({ id, describedBy }) => (
                  <input
                    id={id}
                    type="search"
                    aria-describedby={describedBy}
                    className={`${inputClass} sm:max-w-sm`}
                    value={term}
                    onChange={(e) => {
                      setTerm(e.target.value);
                      setPage(1);
                    }}
                  />
                )}
              </FieldShell>
            </div>
            {matches.length === 0 ? (
              <StateMessage>No voter on the list matches "{term.trim()}".</StateMessage>
            ) : (
              <>
                <div className="mt-4 overflow-x-auto">
                  <VoterTable rows={rows} first={first} caption={`Who voted for ${data.positionTitle}, page ${shownPage} of ${pages}`} />
                </div>
                <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 px-5 py-3 text-sm text-slate-700">
                  <p aria-live="polite">
                    {needle ? `${plural(matches.length, "match", "matches")} of ${formatInteger(data.voters.length)}` : plural(data.voters.length, "voter", "voters")} ·
                    Page {shownPage} of {pages}
                  </p>
                  <div className="flex gap-2">
                    <Button variant="secondary" size="sm" disabled={shownPage <= 1} onClick={() => setPage(shownPage - 1)}>
                      Previous
                    </Button>
                    <Button variant="secondary" size="sm" disabled={shownPage >= pages} onClick={() => setPage(shownPage + 1)}>
                      Next
                    </Button>
                  </div>
                </nav>
              </>
            )}
          </>
        )}
      </Card>
      {printing && (
        <section id="who-voted-print" className="hidden print:block">
          {electionTitle && <p className="text-sm uppercase tracking-wide">{electionTitle}</p>}
          <h1 className="text-xl font-bold">Who voted: {data.positionTitle}</h1>
          <p className="text-sm">
            <Counts data={data} /> Printed {formatDateTime(Date.now())} ({localTimeZone()}).
          </p>
          <VoterTable rows={data.voters} first={0} caption={`Who voted for ${data.positionTitle}`} />
        </section>
      )}
    </>
  );
}

/** "3 voters voted; 3 ballots on the ballot box." */
function Counts({ data }: { data: WhoVoted }) {
  return (
    <>
      {plural(data.voters.length, "voter", "voters")} voted
      {data.ballotsOnBoard !== undefined && `; ${plural(data.ballotsOnBoard, "ballot", "ballots")} on the ballot box`}.
    </>
  );
}

/** The list against the board: equal unless a ballot was cast in someone's name (or a ballot went missing). */
function BoardCheck({ data }: { data: WhoVoted }) {
  if (data.ballotsOnBoard === undefined) return null;
  if (data.ballotsOnBoard === data.voters.length) {
    return (
      <p className="mx-5 mt-4 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-900">
        The ballot box holds one ballot for each voter listed. A voter on this list who did not vote must tell the returning officer and an observer.
      </p>
    );
  }
  return (
    <p role="alert" className="mx-5 mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
      The ballot box holds {plural(data.ballotsOnBoard, "ballot", "ballots")} but {plural(data.voters.length, "voter is", "voters are")} listed: ballots and voters
      must match. Tell the observers and run the integrity check on the Admin Panel.
    </p>
  );
}

function VoterTable({ rows, first, caption }: { rows: readonly WhoVoted["voters"][number][]; first: number; caption: string }) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <ManageTableHead columns={["#", "Name", "Matric Number"]} actions={false} />
      <tbody className="divide-y divide-slate-100">
        {rows.map((v, i) => (
          <tr key={v.matricNumber} className="break-inside-avoid">
            <td className="px-5 py-2 tabular-nums text-slate-600">{formatInteger(first + i + 1)}</td>
            <td className="px-5 py-2 font-semibold text-slate-900">{v.name}</td>
            <td className="px-5 py-2 font-mono text-xs text-slate-700">{v.matricNumber}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The whole list is drawn for printing only, when the browser is about to print ('Print' or
 * the browser's own command), and the page prints it alone (styles.css): the screen keeps to
 * one page of rows however long the list.
 */
function usePrintedList(ready: boolean): boolean {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    if (!ready) return;
    document.body.dataset.print = "who-voted";
    // The browser lays the page out for print right after this event: the list must be in it by then.
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(false);
    window.addEventListener("beforeprint", before);
    window.addEventListener("afterprint", after);
    return () => {
      window.removeEventListener("beforeprint", before);
      window.removeEventListener("afterprint", after);
      delete document.body.dataset.print;
    };
  }, [ready]);
  return printing;
}
