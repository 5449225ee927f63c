import { useEffect, useRef, useState } from "react";
import { messages, type BallotPosition, type MyVote, type RollEntry, type StationChoice } from "@evoting/shared";
import { normalizeCredential } from "@evoting/shared/belenios";
import { VoteCard } from "../../components/vote/VoteCard";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { recordedVote, voteLabel, type ChoiceFields } from "../../lib/vote-body";
import { CredentialPanel } from "../../verifiable/CredentialPanel";
import { beleniosChoice } from "../../verifiable/choice";
import { credentialListed, encryptBallot, prewarmBallotWorker } from "../../verifiable/encrypt";
import { verifiableText } from "../../verifiable/messages";
import { boothText } from "./booth-text";

/** A verifiable position's tracker, shown to the voter once the ballot is saved (and then forgotten). */
export interface BoothTracker {
  positionId: string;
  title: string;
  tracker: string;
}

interface StationBallotProps {
  voter: RollEntry;
  positions: BallotPosition[];
  /** Titles of the positions the station knows this voter has voted for already. */
  alreadyVoted: string[];
  now: number;
  /**
   * Per locked verifiable position, the list of its public credentials from the station's data
   * (StationPackage.credentialLists); a position without one (data stored before it existed) is
   * checked on delivery only.
   */
  credentialLists?: Readonly<Record<string, string>>;
  /** The choices, a verifiable position's as its encrypted ballot, and those ballots' trackers. */
  onSubmit: (choices: StationChoice[], trackers: BoothTracker[]) => Promise<void>;
  onCancel: () => void;
}

/** A verifiable position this device can encrypt for: locked, its election in the station's package. */
const encryptable = (p: BallotPosition) => p.belenios?.state === "open" && Boolean(p.belenios.election);

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
 * A verifiable position's choice is encrypted here with the credential the voter types at the
 * confirmation (verifiable/, the phone's own code, in its worker): only that ballot is saved, the
 * credential is dropped once it is made, and nothing of it outlives this voter's ballot.
 */
export function StationBallot({ voter, positions, alreadyVoted, now, credentialLists, onSubmit, onCancel }: StationBallotProps) {
  const [chosen, setChosen] = useState<ReadonlyMap<string, ChoiceFields>>(new Map());
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [typed, setTyped] = useState("");
  const [credentialError, setCredentialError] = useState<string | null>(null);
  const [encrypting, setEncrypting] = useState(false);
  const credentialInput = useRef<HTMLInputElement>(null);
  const anyVerifiable = positions.some(encryptable);
  const verifiableChosen = positions.some((p) => encryptable(p) && chosen.has(p._id));

  useEffect(() => {
    if (anyVerifiable) prewarmBallotWorker();
  }, [anyVerifiable]);
  // The confirmation asks for the credential first when the ballot holds a verifiable choice.
  useEffect(() => {
    if (confirming && verifiableChosen) credentialInput.current?.focus();
  }, [confirming, verifiableChosen]);

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

  /** Every choice as the sealed queue carries it, a verifiable one encrypted; null when that failed (the panel says why). */
  const sealable = async (): Promise<{ choices: StationChoice[]; trackers: BoothTracker[] } | null> => {
    let credential: string | null = null;
    if (verifiableChosen) {
      credential = normalizeCredential(typed);
      if (!credential) {
        setCredentialError(typed.trim() ? verifiableText.credentialInvalid : verifiableText.credentialMissing);
        credentialInput.current?.focus();
        return null;
      }
    }
    const choices: StationChoice[] = [];
    const trackers: BoothTracker[] = [];
    setCredentialError(null);
    setEncrypting(verifiableChosen);
    try {
      // A well-formed credential that is not on a position's list (a slip from another election,
      // or credentials made again after printing) would be refused on delivery, once the voter
      // has left: it is refused here, before anything is made or saved.
      for (const position of positions) {
        const list = credentialLists?.[position._id];
        if (!list || !chosen.has(position._id) || !encryptable(position)) continue;
        if (!(await credentialListed(credential!, position.belenios!.uuid, list))) {
          setCredentialError(boothText.credentialUnlisted(position.title));
          credentialInput.current?.focus();
          return null;
        }
      }
      for (const [positionId, c] of chosen) {
        const position = positions.find((p) => p._id === positionId);
        if (!position?.belenios) {
          choices.push(toStationChoice(positionId, c));
          continue;
        }
        const { ballot, tracker } = await encryptBallot(position.belenios.election!, credential!, beleniosChoice(position, c));
        choices.push({ positionId: position._id, kind: "belenios", ballot });
        trackers.push({ positionId: position._id, title: position.title, tracker });
      }
    } catch (e) {
      setCredentialError(e instanceof Error ? e.message : "The ballot could not be encrypted on this device.");
      return null;
    } finally {
      setEncrypting(false);
    }
    // The credential has done its work: it goes before the ballot is saved.
    setTyped("");
    return { choices, trackers };
  };

  const submit = async () => {
    setBusy(true);
    try {
      const ready = await sealable();
      if (ready) await onSubmit(ready.choices, ready.trackers);
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
        position.belenios && !encryptable(position) ? (
          <NotReadyCard key={position._id} title={position.title} />
        ) : (
          <VoteCard
            key={position._id}
            position={position}
            status={NOT_VOTED}
            now={now}
            onCast={(choice) => setChosen((prev) => new Map(prev).set(position._id, choice))}
            selecting={{ chosen: selectionOf(position._id), onClear: () => clear(position._id) }}
            verifiable={position.belenios ? <p className="rounded-lg bg-indigo-50 px-3 py-2.5 text-sm text-indigo-950">{boothText.verifiableNote}</p> : undefined}
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
            {verifiableChosen && (
              <CredentialPanel
                credential={null}
                typed={typed}
                onType={(value) => {
                  setTyped(value);
                  setCredentialError(null);
                }}
                error={credentialError}
                encrypting={encrypting}
                disabled={false}
                onChange={() => undefined}
                inputRef={credentialInput}
                hint={boothText.credentialHint}
              />
            )}
            {!verifiableChosen && credentialError && (
              <p className="text-sm font-medium text-red-700" role="alert">
                {credentialError}
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => void submit()} disabled={busy} autoFocus={!verifiableChosen}>
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

/** A verifiable position the station's data holds no locked election for: nothing can be encrypted for it here yet. */
function NotReadyCard({ title }: { title: string }) {
  return (
    <Card className="space-y-2 px-5 py-4" data-testid="station-verifiable-not-ready">
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      <p className="rounded-lg bg-slate-100 px-3 py-2.5 text-sm text-slate-800">{boothText.notReady}</p>
    </Card>
  );
}
