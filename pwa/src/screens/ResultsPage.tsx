import { useRef, type KeyboardEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { messages } from "@evoting/shared";
import { resultsQuery } from "../data/queries";
import { cx } from "../lib/cx";
import { PageHeader } from "../components/ui/PageHeader";
import { Card } from "../components/ui/Card";
import { StateMessage } from "../components/ui/Spinner";
import { ResultsOverview } from "../components/results/ResultsOverview";
import { ResultsWithheld, isResultsWithheld } from "../components/results/ResultsWithheld";
import { DetailedResults } from "./results/DetailedResults";
import { StationBallots } from "../components/results/StationBallots";
import { ResultsExportActions } from "../components/results/ResultsExportActions";
import { BallotBatchNotice } from "../components/results/BallotBatchNotice";
import { RESULTS_TABS, RESULTS_TAB_LABELS, type ResultsTab } from "./results/tabs";

const route = getRouteApi("/_auth/results");

export function ResultsPage() {
  const { tab = "overview" } = route.useSearch();
  const navigate = route.useNavigate();
  const { data: results, isPending, isError, error } = useQuery(resultsQuery());
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  const select = (next: ResultsTab, focus = false) => {
    void navigate({ search: next === "overview" ? {} : { tab: next }, replace: true });
    if (focus) tabRefs.current[next]?.focus();
  };

  // Arrow keys move between tabs (WAI-ARIA tabs pattern, automatic activation).
  const onKeyDown = (event: KeyboardEvent) => {
    const i = RESULTS_TABS.indexOf(tab);
    const last = RESULTS_TABS.length - 1;
    const next =
      event.key === "ArrowRight" ? (i === last ? 0 : i + 1)
      : event.key === "ArrowLeft" ? (i === 0 ? last : i - 1)
      : event.key === "Home" ? 0
      : event.key === "End" ? last
      : null;
    if (next === null) return;
    event.preventDefault();
    select(RESULTS_TABS[next], true);
  };

  return (
    <div>
      <PageHeader title="Live Election Results" description="Figures refresh automatically as votes come in." actions={<ResultsExportActions />} />
      <div role="tablist" aria-label="Results views" onKeyDown={onKeyDown} className="mb-6 inline-flex rounded-xl bg-slate-200/70 p-1">
        {RESULTS_TABS.map((t) => (
          <button
            key={t}
            ref={(el) => {
              tabRefs.current[t] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${t}`}
            aria-selected={tab === t}
            aria-controls={`panel-${t}`}
            tabIndex={tab === t ? 0 : -1}
            onClick={() => select(t)}
            className={cx(
              "focus-ring rounded-lg px-3 py-2 text-sm font-semibold transition-colors sm:px-4",
              tab === t ? "bg-white text-indigo-800 shadow-sm" : "text-slate-700 hover:text-slate-900",
            )}
          >
            {RESULTS_TAB_LABELS[t]}
          </button>
        ))}
      </div>

      {results && <BallotBatchNotice results={results} />}
      {results?.results.some((r) => r.belenios) && (
        <p className="mb-4 rounded-lg bg-indigo-50 px-4 py-3 text-sm text-indigo-950">
          Verifiable positions: every encrypted ballot, and the commands that check the count, are on the public{" "}
          <Link to="/ballot-box" className="font-medium text-indigo-800 underline">
            Ballot Box
          </Link>
          .
        </p>
      )}
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {isPending ? (
          <Card>
            <StateMessage busy>Loading results...</StateMessage>
          </Card>
        ) : isError && isResultsWithheld(error) ? (
          <ResultsWithheld />
        ) : isError ? (
          <Card role="alert" className="px-6 py-10 text-center font-medium text-red-700">
            {messages.loadResultsFailed}
          </Card>
        ) : tab === "detailed" ? (
          <DetailedResults results={results} />
        ) : (
          <ResultsOverview results={results} show={tab === "overview" ? "leaders" : "top"} />
        )}
      </div>
      <StationBallots />
    </div>
  );
}
