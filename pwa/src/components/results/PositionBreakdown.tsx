import {
  formatPercent,
  isYesNo,
  positionTurnout,
  positionOutcome,
  sharePercent,
  sortBreakdown,
  type PositionResult,
} from "@evoting/shared";
import { Avatar } from "../ui/Avatar";
import { Card, CardHeader } from "../ui/Card";
import { MethodBreakdown } from "./MethodBreakdown";
import { isMethodResult } from "./method-outcome";
import { outcomeWord, useProvisional } from "./provisional";
import { VerifiedMark } from "./VerifiedMark";

interface Bar {
  key: string;
  name: string;
  photo: string | null;
  votes: number;
  leading: boolean;
}

/**
 * One position's choices as bars, most votes first, percentages to 1 decimal. An unopposed
 * position shows Yes and No; abstentions are reported apart, outside the percentages, and a
 * shared lead says 'Tie' (the rule is shared/src/results.ts).
 */
export function PositionBreakdown({ result, registeredVoters }: { result: PositionResult; registeredVoters?: number }) {
  const outcome = positionOutcome(result);
  const provisional = useProvisional();
  const yesNo = isYesNo(result);
  const bars: Bar[] = yesNo
    ? [
        { key: "yes", name: `Yes: ${result.breakdown[0].name}`, photo: result.breakdown[0].photo, votes: result.breakdown[0].votes, leading: outcome.kind === "elected" },
        { key: "no", name: "No", photo: null, votes: result.noVotes ?? 0, leading: false },
      ]
    : sortBreakdown(result.breakdown).map((b) => ({
        key: b.candidateId,
        name: b.name,
        photo: b.photo,
        votes: b.votes,
        leading: outcome.kind === "leader" && outcome.leader.candidateId === b.candidateId,
      }));
  const verdict = isMethodResult(result)
    ? null
    : outcome.kind === "tie" ? "Tie" : outcome.kind === "elected" || outcome.kind === "not-elected" ? outcomeWord(outcome.kind, provisional) : null;
  return (
    <Card role="region" aria-label={result.positionTitle}>
      <CardHeader
        as="h3"
        title={result.positionTitle}
        action={<VerifiedMark result={result} />}
        description={`${result.totalVotes} ${result.totalVotes === 1 ? "vote" : "votes"}${result.waiting ? ` counted · ${result.waiting} waiting to be added` : ""}${verdict ? ` · ${verdict}` : ""}${
          registeredVoters === undefined ? "" : ` · turnout ${formatPercent(positionTurnout(result, registeredVoters))} of ${result.eligibleVoters ?? registeredVoters} eligible`
        }`}
      />
      {isMethodResult(result) ? (
        <MethodBreakdown result={result} />
      ) : result.breakdown.length === 0 ? (
        <p className="px-5 py-6 text-center text-slate-600">No candidates available for this position.</p>
      ) : (
        <ul className="space-y-4 px-5 py-4">
          {bars.map((bar) => {
            const pct = sharePercent(bar.votes, result);
            return (
              <li key={bar.key}>
                <div className="mb-1.5 flex items-center gap-3">
                  {bar.key !== "no" && <Avatar src={bar.photo} name={bar.name} className="size-8" />}
                  <span className="min-w-0 flex-1 truncate font-medium text-slate-900">{bar.name}</span>
                  <span className="text-sm tabular-nums text-slate-700">
                    {bar.votes} · <span className="font-semibold text-slate-900">{formatPercent(pct)}</span>
                  </span>
                </div>
                <div
                  className="h-3 overflow-hidden rounded-full bg-slate-100"
                  role="meter"
                  aria-label={`${bar.name} share of votes`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Number(pct.toFixed(1))}
                  aria-valuetext={formatPercent(pct)}
                >
                  <div
                    className={`h-full rounded-full transition-[width] duration-700 ${bar.leading ? "bg-indigo-600" : "bg-indigo-300"}`}
                    style={{ width: `${pct}%` }}
                  />
                </div>
              </li>
            );
          })}
          {(result.abstentions ?? 0) > 0 && (
            <li className="text-sm text-slate-600" data-testid="abstentions">
              Abstained: {result.abstentions} (not counted in the percentages)
            </li>
          )}
        </ul>
      )}
    </Card>
  );
}
