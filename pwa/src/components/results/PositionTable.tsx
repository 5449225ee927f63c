import { outcomeLabel, resultsCsvRows, type PositionResult } from "@evoting/shared";

/** One position's results as the printed sheet and Past Elections show them: the CSV's rows and the outcome. */
export function PositionTable({ result }: { result: PositionResult }) {
  const rows = resultsCsvRows(result);
  const label = outcomeLabel(result);
  return (
    <section className="break-inside-avoid">
      <h2 className="text-lg font-semibold text-slate-900">{result.positionTitle}</h2>
      <p className="mb-2 text-sm text-slate-700" data-testid={`outcome-${result.positionId}`}>
        {label === "Tie" ? "Tie" : label === "No votes" || label === "Not elected" ? label : `Elected: ${label}`}
      </p>
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
              <td className="py-1.5">{outcome === "tie" ? "Tie" : outcome === "elected" ? "Elected" : outcome === "not elected" ? "Not elected" : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
