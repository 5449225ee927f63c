import { formatPercent, turnout, type Results } from "@evoting/shared";
import { formatInteger } from "../../lib/format";
import { Icon } from "../ui/Icon";

interface SummaryTilesProps {
  results: Results;
  /** Decimals of the turnout tile: 1 on home and results, 2 on the detailed tab (docs/product.md, Limits). */
  turnoutDecimals?: number;
}

export function SummaryTiles({ results, turnoutDecimals = 1 }: SummaryTilesProps) {
  const tiles = [
    { label: "Registered Voters", value: formatInteger(results.totalRegisteredVoters), icon: "users", tone: "bg-indigo-50 text-indigo-700" },
    { label: "Votes Cast", value: formatInteger(results.totalVotesCast), icon: "ballot", tone: "bg-green-50 text-green-700" },
    {
      label: "Turnout",
      value: formatPercent(turnout(results.totalVotesCast, results.totalRegisteredVoters), turnoutDecimals),
      icon: "chart",
      tone: "bg-amber-50 text-amber-700",
    },
    { label: "Positions", value: formatInteger(results.results.length), icon: "list", tone: "bg-sky-50 text-sky-700" },
  ] as const;

  return (
    <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4 lg:gap-4">
      {tiles.map((tile) => (
        <li key={tile.label} className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
          <span className={`hidden size-11 shrink-0 items-center justify-center rounded-xl sm:flex ${tile.tone}`}>
            <Icon name={tile.icon} className="size-5" />
          </span>
          <div className="min-w-0">
            <p className="text-sm font-medium text-slate-600">{tile.label}</p>
            <p className="text-2xl font-bold tabular-nums text-slate-900" data-testid={`tile-${tile.label}`}>
              {tile.value}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
