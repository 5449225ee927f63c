import { useQuery } from "@tanstack/react-query";
import { electionQuery } from "../../data/election";
import { useNow } from "../../hooks/use-now";
import { votingClosedText } from "../../lib/voting-closed";

/**
 * Under the banner's 'ELECTION ENDED' (the spec's words), while the grace for votes cast offline
 * runs: when voting closed, until when such votes are still accepted, and what follows.
 */
export function VotingClosedNotice() {
  const { data: election } = useQuery(electionQuery());
  const now = useNow(15_000);
  // Without the server's grace (an older server's settings) there is no time to say.
  const text = election?.voteGraceMinutes !== undefined ? votingClosedText(election.endTime, election.voteGraceMinutes, now) : null;
  if (!text) return null;
  return (
    <p role="status" data-testid="voting-closed-notice" className="rounded-xl bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950 ring-1 ring-amber-200">
      {text}
    </p>
  );
}
