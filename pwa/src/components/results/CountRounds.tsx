import type { PositionResult } from "@evoting/shared";
import { cx } from "../../lib/cx";
import { countFigure, decisionText, nameIn, ruleText, stageTitle } from "./method-outcome";

/**
 * A ranked position's full count, stage by stage: each candidate's votes at every stage, who was
 * elected or excluded there and why, and the non-transferable votes. A table that scrolls sideways
 * on a phone (its first column stays readable), then the decisions in words. `print`: the
 * results sheet's plain black-on-white style.
 */
export function CountRounds({ result, print = false }: { result: PositionResult; print?: boolean }) {
  const rounds = result.rounds ?? [];
  if (rounds.length === 0) return null;
  const name = nameIn(result);
  const electedAt = new Map<string, number>();
  const excludedAt = new Map<string, number>();
  rounds.forEach((round, i) => {
    for (const id of round.elected) if (!electedAt.has(id)) electedAt.set(id, i);
    for (const id of round.excluded) if (!excludedAt.has(id)) excludedAt.set(id, i);
  });
  const candidates = result.breakdown.map((b) => b.candidateId);
  const stv = result.rule === "scottish-stv";
  const cell = print ? "border border-slate-400 px-2 py-1" : "border-b border-slate-100 px-3 py-2";
  const head = print ? "border border-slate-500 bg-slate-100 px-2 py-1" : "border-b-2 border-slate-200 bg-slate-50 px-3 py-2";

  return (
    <div className="space-y-3" data-testid={`rounds-${result.positionId}`}>
      <p className="text-sm text-slate-700">
        Counted by <strong>{ruleText(result)}</strong>, {result.seats ?? 1} seat{(result.seats ?? 1) === 1 ? "" : "s"}, {rounds.length} stage
        {rounds.length === 1 ? "" : "s"}.
      </p>
      <div className={cx("overflow-x-auto", !print && "rounded-lg ring-1 ring-slate-200")} tabIndex={print ? undefined : 0} role={print ? undefined : "region"} aria-label={print ? undefined : `${result.positionTitle}: count by stage`}>
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">{result.positionTitle}: each candidate's votes at each stage of the count</caption>
          <thead>
            <tr>
              <th scope="col" className={head}>
                Candidate
              </th>
              {rounds.map((round, i) => (
                <th key={i} scope="col" className={cx(head, "text-right")}>
                  <span className="block">Stage {i + 1}</span>
                  <span className="block text-xs font-normal text-slate-600">{stageTitle(round, name)}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {candidates.map((id) => (
              <tr key={id}>
                <th scope="row" className={cx(cell, "font-medium text-slate-900")}>
                  {name(id)}
                  {electedAt.has(id) && <span className="ml-2 text-xs font-semibold text-green-800">Elected at stage {electedAt.get(id)! + 1}</span>}
                  {excludedAt.has(id) && <span className="ml-2 text-xs text-slate-600">Excluded at stage {excludedAt.get(id)! + 1}</span>}
                </th>
                {rounds.map((round, i) => {
                  const decided = round.elected.includes(id) ? "elected" : round.excluded.includes(id) ? "excluded" : null;
                  return (
                    <td key={i} className={cx(cell, "text-right tabular-nums", decided === "elected" && "font-bold text-green-800", decided === "excluded" && "text-slate-500 line-through")}>
                      {countFigure(round.votes[id] ?? 0)}
                      {decided && <span className="sr-only"> ({decided})</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
            <tr>
              <th scope="row" className={cx(cell, "font-medium text-slate-700")}>
                Non-transferable
              </th>
              {rounds.map((round, i) => (
                <td key={i} className={cx(cell, "text-right tabular-nums text-slate-700")}>
                  {countFigure(round.nonTransferable)}
                </td>
              ))}
            </tr>
            {stv && (
              <tr>
                <th scope="row" className={cx(cell, "font-medium text-slate-700")}>
                  Lost to rounding
                </th>
                {rounds.map((round, i) => (
                  <td key={i} className={cx(cell, "text-right tabular-nums text-slate-700")}>
                    {countFigure(round.lostToRounding)}
                  </td>
                ))}
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <ul className="space-y-0.5 text-sm text-slate-800">
        {rounds.map((round, i) =>
          round.decisions.length === 0 ? null : (
            <li key={i}>
              Stage {i + 1}: {round.decisions.map((d) => decisionText(d, name)).join("; ")}
            </li>
          ),
        )}
      </ul>
      {result.lotSeed && rounds.some((r) => r.decisions.some((d) => d.tieBreak === "lot")) && (
        <p className="text-xs text-slate-600">
          Ties by lot were drawn from the published seed <code className="break-all">{result.lotSeed}</code>.
        </p>
      )}
    </div>
  );
}
