import { formatPercent, topCandidates, type Results } from "@evoting/shared";
import { Avatar } from "../ui/Avatar";
import { Card, CardHeader } from "../ui/Card";
import { RankBadge } from "./RankBadge";
import { isMethodResult } from "./method-outcome";
import { MethodOutcomeCard } from "./MethodOutcomeCard";

export function TopCandidatesList({ results }: { results: Results }) {
  const ranked = topCandidates(results.results);
  const methods = results.results.filter(isMethodResult);
  // Several seats, ranked and referendum positions are decided by more than a vote count: their outcomes follow the list.
  return (
    <>
    <Card>
      <CardHeader title="Top Candidates by Vote Count" />
      <ol className="divide-y divide-slate-100" data-testid="top-candidates">
        {ranked.map((c) => (
          <li key={`${c.positionId}-${c.candidateId}`} className="flex items-center gap-3 px-5 py-3">
            <RankBadge rank={c.rank} />
            <Avatar src={c.photo} name={c.name} className="size-10" />
            <div className="min-w-0 flex-1">
              <p className="truncate font-semibold text-slate-900">{c.name}</p>
              <p className="truncate text-sm text-slate-600">{c.positionTitle}</p>
            </div>
            <div className="text-right">
              <p className="font-bold tabular-nums text-slate-900">{c.votes}</p>
              <p className="text-xs text-slate-600">{formatPercent(c.percentage)}</p>
            </div>
          </li>
        ))}
      </ol>
    </Card>
    {methods.length > 0 && (
      <Card className="@container">
        <CardHeader title="Seats, Rankings and Referendums" />
        <ul className="grid gap-3 p-4 @lg:grid-cols-2">
          {methods.map((r) => (
            <MethodOutcomeCard key={r.positionId} result={r} />
          ))}
        </ul>
      </Card>
    )}
    </>
  );
}
