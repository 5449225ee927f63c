import { messages } from "@evoting/shared";
import { ApiRequestError } from "../../api/client";
import { Card } from "../ui/Card";

/** The results answer was the 'after-close' refusal: voters wait for the close. */
export const isResultsWithheld = (error: unknown) => error instanceof ApiRequestError && error.status === 403;

/** What Results and the Leaderboard say instead of tallies while results are withheld. */
export function ResultsWithheld() {
  return (
    <Card role="status" className="px-6 py-12 text-center">
      <p className="font-semibold text-slate-900">{messages.resultsHidden}</p>
      <p className="mt-1 text-slate-600">Your vote still counts: cast it on the Vote page.</p>
    </Card>
  );
}
