export const RESULTS_TABS = ["overview", "top-candidates", "detailed"] as const;
export type ResultsTab = (typeof RESULTS_TABS)[number];

export const RESULTS_TAB_LABELS: Record<ResultsTab, string> = {
  overview: "Overview",
  "top-candidates": "Top Candidates",
  detailed: "Detailed",
};

export function parseResultsTab(value: unknown): ResultsTab {
  return RESULTS_TABS.includes(value as ResultsTab) ? (value as ResultsTab) : "overview";
}
