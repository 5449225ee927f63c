/**
 * Counted Ballots: after a position closes, every receipt code counted for it,
 * sorted, with the total (equal to the position's ballot count). A voter finds their own
 * code here; no code says anything about a choice.
 */
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ballotPositionsQuery, myVotesQuery } from "../data/queries";
import { receiptsQuery } from "../data/accountability";
import { electionQuery } from "../data/election";
import { useNow } from "../hooks/use-now";
import { votingClosedText } from "../lib/voting-closed";
import { errorMessage } from "../api/client";
import { formatDateTime, formatInteger, localTimeZone } from "../lib/format";
import { PageHeader } from "../components/ui/PageHeader";
import { Card } from "../components/ui/Card";
import { Badge } from "../components/ui/Badge";
import { StateMessage } from "../components/ui/Spinner";
import { FieldShell, inputClass } from "../components/ui/Field";

export function ReceiptsPage() {
  const positions = useQuery(ballotPositionsQuery());
  const myVotes = useQuery(myVotesQuery());
  const [chosen, setChosen] = useState<string | null>(null);
  const [search, setSearch] = useState("");

  // The first position to have closed is the likeliest one a voter wants to check.
  const list = positions.data ?? [];
  const positionId = chosen ?? [...list].sort((a, b) => Date.parse(a.endTime) - Date.parse(b.endTime))[0]?._id ?? null;
  const position = list.find((p) => p._id === positionId);
  const receipts = useQuery({ ...receiptsQuery(positionId ?? ""), enabled: positionId !== null });
  const { data: election } = useQuery(electionQuery());
  const now = useNow(15_000);
  // Closed, with the grace for votes cast offline still running: say so rather than 'when voting closes'.
  const closing = position ? votingClosedText(position.endTime, election?.voteGraceMinutes, now) : null;
  const mine = myVotes.data?.find((v) => v.positionId === positionId)?.receipt;
  const codes = receipts.data?.receipts;
  const found = useMemo(() => (mine && codes ? codes.includes(mine) : null), [mine, codes]);
  const term = search.trim().toUpperCase();
  const shown = codes ? (term ? codes.filter((c) => c.includes(term)) : codes) : [];

  return (
    <div>
      <PageHeader
        title="Counted Ballots"
        description="Once voting for a position closes, the receipt code of every ballot counted for it is listed here. Find yours to check your vote was counted: no code shows anyone's choice."
      />
      {positions.isPending ? (
        <StateMessage busy>Loading positions...</StateMessage>
      ) : positions.isError ? (
        <StateMessage>Failed to load positions</StateMessage>
      ) : list.length === 0 ? (
        <StateMessage>No positions yet.</StateMessage>
      ) : (
        <div className="space-y-4">
          <div className="flex flex-wrap items-end gap-3">
            <FieldShell label="Position">
              {({ id }) => (
                <select id={id} className={inputClass} value={positionId ?? ""} onChange={(e) => setChosen(e.target.value)}>
                  {list.map((p) => (
                    <option key={p._id} value={p._id}>
                      {p.title}
                    </option>
                  ))}
                </select>
              )}
            </FieldShell>
            <FieldShell label="Find a receipt">
              {({ id }) => <input id={id} className={inputClass} placeholder="e.g. 7K2M9Q4XTB" value={search} onChange={(e) => setSearch(e.target.value)} />}
            </FieldShell>
          </div>

          {mine && (
            <p className="rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-800" aria-live="polite">
              Your receipt for this position: <code className="font-mono font-semibold">{mine}</code>{" "}
              {found === true && <Badge tone="green">Counted</Badge>}
              {found === false && <Badge tone="red">Not in the list</Badge>}
            </p>
          )}

          <Card className="overflow-hidden">
            {receipts.isPending ? (
              <StateMessage busy>Loading receipts...</StateMessage>
            ) : receipts.isError ? (
              <StateMessage>
                {closing ?? (
                  <>
                    {errorMessage(receipts.error, "Failed to load receipts")}
                    {position && now < Date.parse(position.endTime) && ` (voting closes ${formatDateTime(position.endTime)}, ${localTimeZone()})`}
                  </>
                )}
              </StateMessage>
            ) : (
              <div className="px-5 py-4">
                <p className="mb-3 text-sm font-medium text-slate-800" aria-live="polite">
                  {formatInteger(receipts.data.total)} {receipts.data.total === 1 ? "ballot" : "ballots"} counted
                  {term && ` · ${formatInteger(shown.length)} matching`}
                </p>
                {shown.length === 0 ? (
                  <p className="text-sm text-slate-600">{term ? "No receipt matches." : "No ballots were counted for this position."}</p>
                ) : (
                  <ul className="grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-4 lg:grid-cols-6" aria-label="Receipt codes">
                    {shown.map((code) => (
                      <li key={code} className={code === mine ? "rounded bg-green-100 px-2 py-1 font-semibold text-green-900" : "px-2 py-1 text-slate-800"}>
                        {code}
                        {code === mine && <span className="sr-only"> (yours)</span>}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </Card>
        </div>
      )}
    </div>
  );
}
