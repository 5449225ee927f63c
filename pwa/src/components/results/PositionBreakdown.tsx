import { formatPercent, sortBreakdown, votePercentage, type PositionResult } from "@evoting/shared";
import { Avatar } from "../ui/Avatar";
import { Card, CardHeader } from "../ui/Card";

/** One position's candidates as bars, most votes first, percentages to 1 decimal. */
export function PositionBreakdown({ result }: { result: PositionResult }) {
  const entries = sortBreakdown(result.breakdown);
  return (
    <Card>
      <CardHeader
        as="h3"
        title={result.positionTitle}
        description={`${result.totalVotes} ${result.totalVotes === 1 ? "vote" : "votes"}`}
      />
      {entries.length === 0 ? (
        <p className="px-5 py-6 text-center text-slate-600">No candidates available for this position.</p>
      ) : (
        <ul className="space-y-4 px-5 py-4">
          {entries.map((entry, i) => {
            const pct = votePercentage(entry.votes, result.totalVotes);
            const leading = i === 0 && entry.votes > 0;
            return (
              <li key={entry.candidateId}>
                <div className="mb-1.5 flex items-center gap-3">
                  <Avatar src={entry.photo} name={entry.name} className="size-8" />
                  <span className="min-w-0 flex-1 truncate font-medium text-slate-900">{entry.name}</span>
                  <span className="text-sm tabular-nums text-slate-700">
                    {entry.votes} · <span className="font-semibold text-slate-900">{formatPercent(pct)}</span>
                  </span>
                </div>
                <div
                  className="h-3 overflow-hidden rounded-full bg-slate-100"
                  role="meter"
                  aria-label={`${entry.name} share of votes`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Number(pct.toFixed(1))}
                  aria-valuetext={formatPercent(pct)}
                >
                  <div
                    className={`h-full rounded-full transition-[width] duration-700 ${leading ? "bg-indigo-600" : "bg-indigo-300"}`}
                    style={{ width: `${pct}%` }}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
