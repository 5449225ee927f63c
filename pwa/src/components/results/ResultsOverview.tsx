import { hasAnyVotes, type Results } from "@evoting/shared";
import { Card } from "../ui/Card";
import { SummaryTiles } from "./SummaryTiles";
import { LeadersGrid } from "./LeadersGrid";
import { TopCandidatesList } from "./TopCandidatesList";
import { ProvisionalNotice, ProvisionalResults } from "./provisional";

interface ResultsOverviewProps {
  results: Results;
  show?: "all" | "leaders" | "top";
}

/** Summary tiles, then leaders and/or the top-candidates ranking, or the empty states. */
export function ResultsOverview({ results, show = "all" }: ResultsOverviewProps) {
  return (
    <ProvisionalResults results={results}>
      <div className="space-y-6">
        <SummaryTiles results={results} />
        <ProvisionalNotice results={results} />
        <ResultsBody results={results} show={show} />
      </div>
    </ProvisionalResults>
  );
}

function ResultsBody({ results, show }: Required<ResultsOverviewProps>) {
  if (results.results.length === 0) {
    return <EmptyResults title="No results available yet." />;
  }
  if (!hasAnyVotes(results) && results.totalVotesCast > 0) {
    // Votes are cast but wait for their group: 'No votes have been cast yet' would contradict the tiles.
    const waiting = results.results.reduce((n, r) => n + (r.waiting ?? 0), 0);
    return (
      <EmptyResults
        title="No votes have been added to the results yet."
        detail={`${waiting} ${waiting === 1 ? "vote is" : "votes are"} waiting to be added: they are added in groups, to protect the secret ballot.`}
      />
    );
  }
  if (!hasAnyVotes(results)) {
    return <EmptyResults title="No votes have been cast yet." detail="Results will appear here once voting begins." />;
  }
  return (
    <div className={show === "all" ? "grid gap-6 xl:grid-cols-2" : "space-y-6"}>
      {show !== "top" && <LeadersGrid results={results} />}
      {show !== "leaders" && <TopCandidatesList results={results} />}
    </div>
  );
}

export function EmptyResults({ title, detail }: { title: string; detail?: string }) {
  return (
    <Card className="px-6 py-12 text-center">
      <p className="font-semibold text-slate-900">{title}</p>
      {detail && <p className="mt-1 text-slate-600">{detail}</p>}
    </Card>
  );
}
