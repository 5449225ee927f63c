import { memo, useDeferredValue } from "react";
import { useQuery } from "@tanstack/react-query";
import { messages, type BallotPosition, type MyVote } from "@evoting/shared";
import type { LocalVoteStates } from "../offline";
import { ballotPositionsQuery, myVotesQuery, useCastVote, useCastingPositionIds } from "../data/queries";
import { useOfflineRuntime, useOptionalStore } from "../offline/app/use-offline";
import { useSession } from "../auth/use-session";
import { positionVoteStatus, type PositionVoteStatus } from "../data/vote-status";
import { notifyError, notifySuccess } from "../lib/notify";
import { zoneOffsetName } from "../lib/format";
import { useNow } from "../hooks/use-now";
import { PageHeader } from "../components/ui/PageHeader";
import { Card } from "../components/ui/Card";
import { StateMessage } from "../components/ui/Spinner";
import { VoteCard } from "../components/vote/VoteCard";
import { VotingStatusCard } from "../components/vote/VotingStatusCard";
import { choiceBody, type ChoiceFields } from "../lib/vote-body";
import { useVerifiableBallot } from "../verifiable/use-verifiable-ballot";

/** Window status is re-evaluated this often so a position opens or closes without a reload. */
const WINDOW_TICK_MS = 15_000;
const NO_VOTES: MyVote[] = [];
const NO_LOCAL: LocalVoteStates = new Map();

/** This device's queued / settled votes for the signed-in voter (the offline outbox). */
function useLocalVoteStates(): LocalVoteStates {
  const userId = useSession()?.user._id;
  const runtime = useOfflineRuntime(Boolean(userId));
  return useOptionalStore(runtime && userId ? runtime.voteStates(userId) : null, NO_LOCAL);
}

export function VotePage() {
  const positions = useQuery(ballotPositionsQuery());
  const myVotes = useQuery(myVotesQuery());
  // The ballot's first render is the page's largest piece of work. It starts once the ballot
  // is known and this voter's votes are too (or their first try failed: the cards then lock
  // when they come), as a deferred render: React builds it in short slices that let the
  // browser in between (no long task) while 'Loading positions...' stays on screen. From then
  // on it follows the queries at once.
  const answered = positions.data !== undefined && (!myVotes.isPending || myVotes.failureCount > 0);
  const ready = useDeferredValue(answered, false);
  const castingIds = useCastingPositionIds();
  const now = useNow(WINDOW_TICK_MS);
  const local = useLocalVoteStates();
  const votes = myVotes.data ?? NO_VOTES;
  const statusOf = (positionId: string) => positionVoteStatus(positionId, { myVotes: votes, castingIds, local });
  // A position limited to groups the voter is not in is not on their ballot.
  const ballot = positions.data?.filter((p) => p.eligible !== false);

  return (
    <div>
      <PageHeader
        title="Cast Your Vote"
        description="Select a candidate for each position. Your vote is final."
      />
      {positions.isPending || (!positions.isError && !(answered && ready)) ? (
        <Card>
          <StateMessage busy>Loading positions...</StateMessage>
        </Card>
      ) : positions.isError ? (
        <Card role="alert" className="px-6 py-10 text-center font-medium text-red-700">
          {messages.loadPositionsFailed}
        </Card>
      ) : !ballot || ballot.length === 0 ? (
        <Card className="px-6 py-12 text-center text-slate-600">No positions are open for voting yet.</Card>
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-3">
          <div className="min-w-0 space-y-6 lg:col-span-2">
            <p className="text-sm text-slate-600">Times are shown in your time zone ({zoneOffsetName()}).</p>
            {ballot.map((position) => (
              <PositionBallot key={position._id} position={position} status={statusOf(position._id)} now={now} />
            ))}
          </div>
          <div className="order-first min-w-0 lg:sticky lg:top-24 lg:order-last">
            <VotingStatusCard positions={ballot} statusOf={statusOf} now={now} />
          </div>
        </div>
      )}
    </div>
  );
}

/** Memoized: the page re-renders whenever any query or this device's outbox moves; a card only when its own inputs do. */
const PositionBallot = memo(function PositionBallot({ position, status, now }: { position: BallotPosition; status: PositionVoteStatus; now: number }) {
  const castVote = useCastVote();
  // A verifiable position: the credential panel, and the ballot encrypted on the device first.
  const verifiable = useVerifiableBallot(position, status);
  const send = (cast: ChoiceFields) =>
    castVote.mutate(
      {
        positionId: position._id,
        ...choiceBody(cast),
        candidateName: cast.candidateName,
        ...(cast.candidateNames ? { candidateNames: cast.candidateNames } : {}),
        // How an encrypted vote reads on this device's card (the server is sent the ballot only).
        ...(cast.ballot ? { candidateId: cast.candidateId, ...(cast.choice ? { choice: cast.choice } : {}), ...(cast.candidateIds ? { candidateIds: cast.candidateIds } : {}) } : {}),
        ...(cast.tracker ? { tracker: cast.tracker } : {}),
        ballotTicket: position.ballotTicket,
      },
      {
        // Through the outbox, the outcome listener (data/outcomes.ts) tells the voter.
        onSuccess: (result) => {
          if (result.via === "direct") notifySuccess(messages.castVoteSuccess);
        },
        onError: (error) => notifyError(error, messages.castVoteFailed),
      },
    );
  return (
    <VoteCard
      position={position}
      status={verifiable.encrypting ? ENCRYPTING : status}
      now={now}
      verifiable={verifiable.panel}
      onCast={(cast) => {
        if (!position.belenios) return send(cast);
        void verifiable.prepare(cast).then((ready) => ready && send(ready));
      }}
    />
  );
});

const ENCRYPTING: PositionVoteStatus = { kind: "casting" };
