import { outcomeLabel, resultsCsvRows, type PositionResult } from "@evoting/shared";
import { CountRounds } from "./CountRounds";
import { RecountNote } from "./RecountNote";
import { isMethodResult, ruleText } from "./method-outcome";
import { methodSummary, thresholdText } from "../../lib/ballot-method";
import { VerifiedLine } from "./VerifiedMark";

/** The CSV's outcome column in the sheet's words. */
const outcomeWords: Record<string, string> = {
  tie: "Tie",
  elected: "Elected",
  "not elected": "Not elected",
  passed: "Passed",
  "not passed": "Not passed",
  leading: "Leading",
  "no ahead": "No ahead",
  "passing so far": "Passing so far",
  "not passing so far": "Not passing so far",
};

/**
 * One position's results as the printed sheet and Past Elections show them: the CSV's rows, the
 * outcome, a ranked count's rounds and how to recount it (`download`: with the BLT download).
 */
export function PositionTable({ result, download = false, provisional = false }: { result: PositionResult; download?: boolean; provisional?: boolean }) {
  const rows = resultsCsvRows(result, provisional);
  const label = outcomeLabel(result, provisional);
  const method = isMethodResult(result);
  const headingId = `position-${result.positionId}`;
  return (
    <section className="break-inside-avoid" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {result.positionTitle}
      </h2>
      {method && (
        <p className="text-sm text-slate-700">
          {methodSummary(result)}
          {result.method === "referendum" && `: ${result.question ?? ""} Passes with: ${thresholdText(result.passThreshold)}.`}
          {result.method === "ranked" && result.count === "full" && ` · ${ruleText(result)}`}
        </p>
      )}
      <p className="mb-2 text-sm text-slate-700" data-testid={`outcome-${result.positionId}`}>
        {/* Method labels already say what they are ('Elected: ...', 'Passed'); the baseline's (docs/product.md) name the winner. */}
        {method || label === "Tie" || label === "No votes" || label === "Not elected" || label === "No ahead" ? label : `${provisional ? "Leading" : "Elected"}: ${label}`}
      </p>
      <VerifiedLine result={result} />
      <table className="w-full border-collapse text-left text-sm">
        <thead>
          <tr className="border-b-2 border-slate-800">
            <th scope="col" className="py-1.5 pr-3">Choice</th>
            <th scope="col" className="py-1.5 pr-3 text-right">Votes</th>
            <th scope="col" className="py-1.5 pr-3 text-right">Share</th>
            <th scope="col" className="py-1.5">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([, choice, , votes, percentage, outcome], i) => (
            <tr key={i} className="border-b border-slate-300">
              <td className="py-1.5 pr-3">{choice}</td>
              <td className="py-1.5 pr-3 text-right tabular-nums">{votes}</td>
              <td className="py-1.5 pr-3 text-right tabular-nums">{percentage === "" ? "" : `${percentage}%`}</td>
              <td className="py-1.5">{outcomeWords[String(outcome)] ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.method === "ranked" && result.count === "full" && (
        <div className="mt-3 space-y-3">
          <CountRounds result={result} print />
          <RecountNote result={result} download={download} />
        </div>
      )}
    </section>
  );
}
