import { rankColour, type RankColour } from "@evoting/shared";
import { cx } from "../../lib/cx";

const colours: Record<RankColour, string> = {
  gold: "bg-yellow-400 text-yellow-950 ring-yellow-500",
  silver: "bg-slate-300 text-slate-900 ring-slate-400",
  bronze: "bg-orange-700 text-white ring-orange-800",
  blue: "bg-blue-600 text-white ring-blue-700",
};

export function RankBadge({ rank }: { rank: number }) {
  const colour = rankColour(rank);
  return (
    <span
      data-rank-colour={colour}
      aria-label={`Rank ${rank}`}
      className={cx("inline-flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ring-1", colours[colour])}
    >
      {rank}
    </span>
  );
}
