import { formatPercent, leadersByPosition, type Results } from "@evoting/shared";
import { Avatar } from "../ui/Avatar";
import { Card, CardHeader } from "../ui/Card";

export function LeadersGrid({ results }: { results: Results }) {
  const leaders = leadersByPosition(results.results);
  return (
    <Card>
      <CardHeader title="Current Leaders by Position" />
      <ul className="grid gap-3 p-4 sm:grid-cols-2 xl:grid-cols-3">
        {leaders.map((leader) => (
          <li key={leader.positionId} className="flex items-center gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3">
            <Avatar src={leader.photo} name={leader.name} className="size-12" />
            <div className="min-w-0 flex-1">
              <p className="truncate text-xs font-semibold uppercase tracking-wide text-indigo-700">{leader.positionTitle}</p>
              <p className="truncate font-semibold text-slate-900">{leader.name}</p>
              <p className="text-sm text-slate-600">
                {leader.votes} {leader.votes === 1 ? "vote" : "votes"} · {formatPercent(leader.percentage)}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
