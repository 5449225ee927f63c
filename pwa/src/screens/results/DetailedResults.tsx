import type { Results } from "@evoting/shared";
import { useResultsStream } from "../../data/use-results-stream";
import { SummaryTiles } from "../../components/results/SummaryTiles";
import { PositionBreakdown } from "../../components/results/PositionBreakdown";
import { EmptyResults } from "../../components/results/ResultsOverview";
import { ProvisionalNotice, ProvisionalResults } from "../../components/results/provisional";

const streamLabel = { connecting: "Connecting to live updates…", live: "Live", reconnecting: "Reconnecting…" } as const;

/** The detailed tab: connected to the live channel, overall stats and every position's bars. */
export function DetailedResults({ results }: { results: Results }) {
  const stream = useResultsStream(true);
  return (
    <ProvisionalResults results={results}>
    <div className="space-y-6">
      <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-slate-700 ring-1 ring-slate-200" data-stream={stream}>
        <span
          aria-hidden="true"
          className={`size-2.5 rounded-full ${stream === "live" ? "animate-pulse bg-green-600" : "bg-amber-500"}`}
        />
        {streamLabel[stream]}
      </p>
      {/* The detailed tab reads turnout to 2 decimals (docs/product.md, Limits). */}
      <SummaryTiles results={results} turnoutDecimals={2} />
      <ProvisionalNotice results={results} />
      {results.results.length === 0 ? (
        <EmptyResults title="No results available yet." />
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          {results.results.map((r) => (
            <PositionBreakdown key={r.positionId} result={r} registeredVoters={results.totalRegisteredVoters} />
          ))}
        </div>
      )}
    </div>
    </ProvisionalResults>
  );
}
