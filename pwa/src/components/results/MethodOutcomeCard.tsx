import type { PositionResult } from "@evoting/shared";
import { methodSummary } from "../../lib/ballot-method";
import { methodOutcome, ruleText } from "./method-outcome";
import { outcomeWord, useProvisional } from "./provisional";
import { useClosedCountText } from "./use-closed-count";

/**
 * A several-seat, ranked or referendum position on the overview and Top Candidates tabs: who is
 * elected (a tie for the last seat named as such), the first-preference leader while a ranked
 * count waits for the close, or whether the referendum passed. Nothing while it has no votes.
 */
export function MethodOutcomeCard({ result }: { result: PositionResult }) {
  const outcome = methodOutcome(result);
  const provisional = useProvisional();
  const closed = useClosedCountText(result);
  if (outcome.kind === "no-votes") return null;
  return (
    <li className="rounded-xl border border-slate-200 bg-slate-50 p-3" data-outcome={outcome.kind} data-testid={`method-card-${result.positionId}`}>
      <p className="truncate text-xs font-semibold uppercase tracking-wide text-indigo-700">{result.positionTitle}</p>
      <p className="text-xs text-slate-600">
        {result.method === "referendum" ? "Referendum" : methodSummary(result)}
        {result.method === "ranked" && result.count === "full" && ` · ${ruleText(result)}`}
      </p>
      {outcome.kind === "referendum" ? (
        <>
          <p className="font-semibold text-slate-900">{outcomeWord(outcome.passed ? "passed" : "not-passed", provisional)}</p>
          <p className="text-sm text-slate-600">
            Yes {outcome.yes} · No {outcome.no} · Abstentions {outcome.abstentions} · {outcome.threshold}
          </p>
        </>
      ) : outcome.kind === "first-preferences" ? (
        <>
          <p className="font-semibold text-slate-900">{outcome.leader ? `${outcome.leader} leads on first preferences` : "Level on first preferences"}</p>
          <p className="text-sm text-slate-600">{closed ?? "The full count follows the close."}</p>
        </>
      ) : (
        <>
          <p className="font-semibold text-slate-900">{outcome.elected.length > 0 ? `${outcomeWord("elected", provisional)}: ${outcome.elected.join(", ")}` : "Nobody elected yet"}</p>
          {outcome.tied.length > 0 && <p className="text-sm font-medium text-amber-900">Tie for the last seat: {outcome.tied.join(", ")}</p>}
        </>
      )}
    </li>
  );
}
