import { useQuery } from "@tanstack/react-query";
import { resultsQuery } from "../data/queries";
import { ElectionBanner } from "../components/election/ElectionBanner";
import { VotingClosedNotice } from "../components/election/VotingClosedNotice";
import { HomeVoteCard } from "../components/vote/HomeVoteCard";
import { ResultsOverview } from "../components/results/ResultsOverview";
import { BallotBatchNotice } from "../components/results/BallotBatchNotice";
import { ResultsWithheld, isResultsWithheld } from "../components/results/ResultsWithheld";
import { CandidatesTable } from "../components/candidates/CandidatesTable";
import { InstallHint } from "../components/install/InstallHint";
import { NominationsHomeCard } from "../components/nominations/NominationsHomeCard";

export function HomePage() {
  const { data: results, error } = useQuery(resultsQuery());
  return (
    <div className="space-y-8">
      <ElectionBanner />
      <VotingClosedNotice />
      <HomeVoteCard />
      <InstallHint />
      <NominationsHomeCard />
      {/* The overview appears only once results have loaded (spec section 2). */}
      {results && !isResultsWithheld(error) && (
        <section aria-labelledby="overview-title" className="space-y-4">
          <h2 id="overview-title" className="text-xl font-bold text-slate-900">
            Results Overview
          </h2>
          <BallotBatchNotice results={results} />
          <ResultsOverview results={results} />
        </section>
      )}
      {/* Issue 11: with 'after-close' visibility, voters are told when results will show. */}
      {isResultsWithheld(error) && <ResultsWithheld />}
      <CandidatesTable />
    </div>
  );
}
