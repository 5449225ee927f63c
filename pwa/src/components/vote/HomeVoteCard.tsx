/**
 * The voter's way to the ballot from Home (the leaderboard, docs/product.md): while positions are open and
 * not yet voted, 'Vote now' with how many are left; once every open position is voted, a line
 * saying so and a link to the receipts. When an election has been declared, its results are a
 * link away. Staff never vote, so they see none of it.
 */
import { Link } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { positionStatus } from "@evoting/shared";
import { ballotPositionsQuery, myVotesQuery } from "../../data/queries";
import { declaredElectionsQuery } from "../../data/elections";
import { useSession } from "../../auth/use-session";
import { useNow } from "../../hooks/use-now";
import { buttonClass } from "../ui/Button";

export function HomeVoteCard() {
  const role = useSession()?.user.role;
  const voter = role === "voter";
  const now = useNow(30_000);
  const positions = useQuery({ ...ballotPositionsQuery(), enabled: voter });
  const votes = useQuery({ ...myVotesQuery(), enabled: voter });
  const declared = useQuery({ ...declaredElectionsQuery(), enabled: voter, retry: false });
  if (!voter || !positions.data || !votes.data) return null;

  const voted = new Set(votes.data.map((v) => v.positionId));
  const mine = positions.data.filter((p) => p.eligible !== false);
  const open = mine.filter((p) => positionStatus(now, Date.parse(p.startTime), Date.parse(p.endTime)) === "active");
  const left = open.filter((p) => !voted.has(p._id)).length;
  const allVoted = mine.length > 0 && mine.every((p) => voted.has(p._id));
  // After the close the receipts wait only for the grace (said under the banner), not for a close.
  const allClosed = mine.every((p) => now >= Date.parse(p.endTime));
  const last = declared.data?.[0];
  if (left === 0 && !allVoted && !last) return null;

  return (
    <section aria-label="Your ballot" className="flex flex-col gap-3 rounded-2xl border border-indigo-200 bg-indigo-50 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 text-sm text-indigo-950">
        {left > 0 ? (
          <p className="text-base font-semibold">
            You have {left} position{left === 1 ? "" : "s"} left to vote in.
          </p>
        ) : allVoted ? (
          <p className="text-base font-semibold">You have voted in every position.</p>
        ) : null}
        {allVoted && (
          <p>
            Find your ballots in{" "}
            <Link to="/receipts" className="font-medium underline">
              Counted Ballots
            </Link>{" "}
            {allClosed ? "once they are published." : "once voting closes."}
          </p>
        )}
        {last && (
          <p>
            Last declared results:{" "}
            <Link to="/elections/$id" params={{ id: String(last.id) }} className="font-medium underline">
              {last.title}
            </Link>
          </p>
        )}
      </div>
      {left > 0 && (
        <Link to="/vote" className={buttonClass("primary", "lg")}>
          Vote now
        </Link>
      )}
    </section>
  );
}
