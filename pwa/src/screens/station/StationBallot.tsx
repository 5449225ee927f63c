import { useState } from "react";
import { messages, type BallotPosition, type MyVote, type RollEntry, type StationChoice } from "@evoting/shared";
import { VoteCard } from "../../components/vote/VoteCard";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { recordedVote, voteLabel, type ChoiceFields } from "../../lib/vote-body";
import { verifiableText } from "../../verifiable/messages";

interface StationBallotProps {
  voter: RollEntry;
  positions: BallotPosition[];
  /** Titles of the positions the station knows this voter has voted for already. */
  alreadyVoted: string[];
  now: number;
  onSubmit: (choices: StationChoice[]) => Promise<void>;
  onCancel: () => void;
}

const NOT_VOTED = { kind: "not-voted" } as const;

/** As the sealed queue carries it: a candidate (Yes on an unopposed position), 'yes' / 'no' / 'abstain', or marks. */
function toStationChoice(positionId: string, c: ChoiceFields): StationChoice {
  if (c.choice) return { positionId, kind: c.choice };
  if (c.ranking) return { positionId, kind: "ranked", candidateIds: c.ranking };
  if (c.candidateIds) return { positionId, kind: "multi", candidateIds: c.candidateIds };
  return { positionId, kind: "candidate", candidateId: c.candidateId };
}

/**
 * The voter's private ballot: the vote page's cards, then one confirmation. The choices live in
 * this component's state only; submitting or cancelling unmounts it, and with it the choices.
 */
export function StationBallot({ voter, positions, alreadyVoted, now, onSubmit, onCancel }: StationBallotProps) {
  const [chosen, setChosen] = useState<ReadonlyMap<string, ChoiceFields>>(new Map());
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  // A selection, not a recorded vote: the card says 'Selected' until the ballot is confirmed.
  const selectionOf = (positionId: string): MyVote | null => {
    const c = chosen.get(positionId);
    return c ? recordedVote(positionId, c) : null;
  };
  const clear = (positionId: string) =>
    setChosen((prev) => {
      const next = new Map(prev);
      next.delete(positionId);
      return next;
    });

  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit([...chosen].map(([positionId, c]) => toStationChoice(positionId, c)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold text-slate-900">
          Ballot for {voter.name} <span className="font-normal text-slate-600">({voter.matricNumber})</span>
        </h2>
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel ballot
        </Button>
      </div>
      {alreadyVoted.length > 0 && (
        <p className="rounded-lg bg-slate-100 px-3 py-2.5 text-sm text-slate-800">Already voted: {alreadyVoted.join(", ")}</p>
      )}
      {positions.map((position) =>
        position.belenios ? (
          <OwnPhoneCard key={position._id} title={position.title} />
        ) : (
          <VoteCard
            key={position._id}
            position={position}
            status={NOT_VOTED}
            now={now}
            onCast={(choice) => setChosen((prev) => new Map(prev).set(position._id, choice))}
            selecting={{ chosen: selectionOf(position._id), onClear: () => clear(position._id) }}
          />
        ),
      )}
      <Card className="space-y-3 px-5 py-4">
        {!confirming ? (
          <Button onClick={() => setConfirming(true)} disabled={chosen.size === 0}>
            Confirm ballot
          </Button>
        ) : (
          <div role="group" aria-label="Confirm ballot" className="space-y-3">
            <p className="font-medium text-slate-900">
              Submit this ballot ({chosen.size} of {positions.length} positions)? It cannot be changed afterwards.
            </p>
            <ul aria-label="This ballot" className="space-y-1 text-sm text-slate-800">
              {positions
                .filter((p) => chosen.has(p._id))
                .map((p) => (
                  <li key={p._id}>
                    <span className="font-medium">{p.title}:</span> {voteLabel(recordedVote(p._id, chosen.get(p._id)!), p.method)}
                  </li>
                ))}
            </ul>
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => void submit()} disabled={busy} autoFocus>
                {busy ? "Submitting..." : "Submit ballot"}
              </Button>
              <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy}>
                Back
              </Button>
            </div>
          </div>
        )}
        {positions.length === 0 && <p className="text-slate-600">{messages.stationNothingToVote}</p>}
      </Card>
    </div>
  );
}

/** A verifiable position: its ballot is encrypted with the voter's own credential on their own device, not here. */
function OwnPhoneCard({ title }: { title: string }) {
  return (
    <Card className="space-y-2 px-5 py-4" data-testid="station-own-phone">
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      <p className="rounded-lg bg-amber-50 px-3 py-2.5 font-medium text-amber-900">{verifiableText.stationOwnPhone}</p>
      <p className="text-sm text-slate-700">{verifiableText.stationOwnPhoneWhy}</p>
    </Card>
  );
}
