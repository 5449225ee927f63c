import type { Results } from "@evoting/shared";

const votes = (n: number) => `${n} ${n === 1 ? "vote" : "votes"}`;

/**
 * Why the tallies lag the votes when the election applies ballots in groups (its ballot batch
 * above 1), and how many wait. The count waiting is the same number turnout already shows
 * minus the tallies, so it tells no one more than the groups do.
 */
export function BallotBatchNotice({ results }: { results: Results }) {
  const batch = results.ballotBatch;
  if (!batch || batch <= 1) return null;
  const waiting = results.results.filter((r) => (r.waiting ?? 0) > 0);
  const total = waiting.reduce((n, r) => n + (r.waiting ?? 0), 0);
  return (
    <p role="note" data-testid="ballot-batch-notice" className="mb-6 rounded-xl bg-indigo-50 px-4 py-3 text-sm text-indigo-900 ring-1 ring-indigo-200">
      Votes are added to the results in groups of {batch} per position, to protect the secret ballot.{" "}
      {total === 0
        ? "No votes are waiting."
        : `${votes(total)} ${total === 1 ? "is" : "are"} waiting to be added${
            waiting.length > 1 ? ` (${waiting.map((r) => `${r.positionTitle}: ${r.waiting}`).join(", ")})` : ""
          }. A position's remaining votes are added as soon as it closes, after the grace for votes cast offline.`}
    </p>
  );
}
