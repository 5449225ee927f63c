import { formatPercent, positionOutcome, sharePercent, type PositionResult, type Results } from "@evoting/shared";
import { Avatar } from "../ui/Avatar";
import { Card, CardHeader } from "../ui/Card";
import { isMethodResult } from "./method-outcome";
import { MethodOutcomeCard } from "./MethodOutcomeCard";
import { outcomeWord, useProvisional } from "./provisional";
import { VerifiedMark } from "./VerifiedMark";

const votesText = (n: number) => `${n} ${n === 1 ? "vote" : "votes"}`;

/**
 * One card per position that has votes: its leader, or 'Tie' when two or more share the lead,
 * or, on an unopposed position, whether the candidate is elected (the rule is
 * shared/src/results.ts).
 */
export function LeadersGrid({ results }: { results: Results }) {
  return (
    // Columns follow the card's own width, not the window's: beside Top Candidates at 1280 px the
    // card is half as wide, and three columns there squeezed a ranked card's sentence to a word a line.
    <Card className="@container">
      <CardHeader title="Current Leaders by Position" />
      <ul className="grid gap-3 p-4 @lg:grid-cols-2 @3xl:grid-cols-3">
        {results.results.map((r) => (
          <LeaderCard key={r.positionId} result={r} />
        ))}
      </ul>
    </Card>
  );
}

function LeaderCard({ result }: { result: PositionResult }) {
  if (isMethodResult(result)) return <MethodOutcomeCard result={result} />;
  const outcome = positionOutcome(result);
  const provisional = useProvisional();
  if (outcome.kind === "no-votes") return null;
  const shown = outcome.kind === "leader" ? outcome.leader : outcome.kind === "tie" ? null : outcome.candidate;
  return (
    <li className="flex items-center gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3" data-outcome={outcome.kind}>
      {shown ? (
        <Avatar src={shown.photo} name={shown.name} className="size-12" />
      ) : (
        <span aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-amber-100 font-bold text-amber-900">
          =
        </span>
      )}
      <div className="min-w-0 flex-1">
        <p className="truncate text-xs font-semibold uppercase tracking-wide text-indigo-700">{result.positionTitle}</p>
        {result.belenios && <VerifiedMark result={result} />}
        {outcome.kind === "tie" ? (
          <>
            <p className="font-semibold text-slate-900">Tie</p>
            <p className="text-sm text-slate-600">
              {outcome.tied.map((t) => t.name).join(", ")} · {votesText(outcome.tied[0].votes)} each
            </p>
          </>
        ) : outcome.kind === "leader" ? (
          <>
            <p className="truncate font-semibold text-slate-900">{outcome.leader.name}</p>
            <p className="text-sm text-slate-600">
              {votesText(outcome.leader.votes)} · {formatPercent(sharePercent(outcome.leader.votes, result))}
            </p>
          </>
        ) : (
          <>
            <p className="truncate font-semibold text-slate-900">
              {outcome.candidate.name} · {outcomeWord(outcome.kind, provisional)}
            </p>
            <p className="text-sm text-slate-600">
              Yes {outcome.yes} · No {outcome.no}
            </p>
          </>
        )}
      </div>
    </li>
  );
}
