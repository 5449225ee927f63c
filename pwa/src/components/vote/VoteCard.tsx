import { useId, useRef, useState, type FormEvent } from "react";
import { messages, positionStatus, type BallotPosition, type MyVote, type PositionStatus } from "@evoting/shared";
import { voteLabel, type PositionVoteStatus } from "../../data/vote-status";
import { BallotChoices, castOf, valueOfVote } from "./BallotChoices";
import { offlineText } from "../../offline/notices";
import { Badge } from "../ui/Badge";
import { formatDateTime } from "../../lib/format";
import { cx } from "../../lib/cx";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { PositionStatusBadge } from "../election/PositionStatusBadge";
import { Icon } from "../ui/Icon";
import { ReceiptCode } from "./ReceiptCode";

// The cast check (and zod) loads when a choice is first picked, not with the ballot
// (vote-schemas.ts); Cast Vote is disabled until then, so a submit finds it loaded or loading.
const loadSchemas = () => import("./vote-schemas");
const warmSchemas = () => void loadSchemas().catch(() => undefined);

interface VoteCardProps {
  position: BallotPosition;
  status: PositionVoteStatus;
  now: number;
  /** `choice` only for a vote that names no candidate ('no', 'abstain'). */
  onCast: (choice: { candidateId: string; candidateName: string; choice?: "no" | "abstain" }) => void;
  /**
   * The polling station's private ballot: choosing only selects (`onCast` on each
   * choice), nothing is recorded until the ballot is confirmed, so the card says 'Selected: …'
   * and lets the voter change or clear it. Unset on the vote page: the spec's Cast Vote card.
   */
  selecting?: { chosen: MyVote | null; onClear: () => void };
}

/** Why a position cannot take votes right now, in the voter's local time (the time names its zone). */
export function windowClosedReason(window: PositionStatus, position: Pick<BallotPosition, "startTime" | "endTime">) {
  if (window === "upcoming") return `${messages.votingNotStarted}. It opens on ${formatDateTime(position.startTime)}.`;
  if (window === "ended") return `${messages.votingEnded}. It closed on ${formatDateTime(position.endTime)}.`;
  return null;
}

export function VoteCard({ position, status, now, onCast, selecting }: VoteCardProps) {
  const headingId = useId();
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const checking = useRef(false);

  const window = positionStatus(now, Date.parse(position.startTime), Date.parse(position.endTime));
  const closedReason = windowClosedReason(window, position);
  const recorded = status.kind === "voted" || status.kind === "queued" || status.kind === "failed" ? status.vote : null;
  const locked = status.kind === "voted" || status.kind === "queued" || status.kind === "casting";
  const casting = status.kind === "casting";
  const choiceDisabled = locked || window !== "active";
  const checkedId = selecting ? (selecting.chosen ? valueOfVote(selecting.chosen) : null) : recorded ? valueOfVote(recorded) : selected;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (status.kind === "voted" || status.kind === "queued") {
      setError(messages.alreadyVoted);
      return;
    }
    // One check at a time: a second press while the check loads does not cast twice.
    if (checking.current) return;
    checking.current = true;
    const cast = castOf(selected ?? "", position);
    const request = { positionId: position._id, ...(cast.choice ? { choice: cast.choice } : { candidateId: cast.candidateId }) };
    void loadSchemas()
      .then(
        ({ castVoteSchema }) => {
          const parsed = castVoteSchema.safeParse(request);
          if (!parsed.success) {
            setError(parsed.error.issues[0]?.message ?? messages.selectCandidate);
            return;
          }
          setError(null);
          onCast(cast);
        },
        // The check's code could not load (offline before the service worker kept it): the
        // vote still goes, as castOf always names exactly one candidate or choice and the
        // server applies the same schema when it arrives.
        () => {
          setError(null);
          onCast(cast);
        },
      )
      .finally(() => {
        checking.current = false;
      });
  };

  return (
    <Card className={cx("overflow-hidden", status.kind === "voted" && "ring-2 ring-green-600/30")} data-testid={`vote-card-${position._id}`}>
      <form onSubmit={submit} aria-labelledby={headingId}>
        <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
          <div className="min-w-0">
            <h2 id={headingId} className="text-lg font-semibold text-slate-900">
              {position.title}
            </h2>
            <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-600">
              <Icon name="clock" className="size-4 shrink-0" />
              <span>
                {formatDateTime(position.startTime)} – {formatDateTime(position.endTime)}
              </span>
            </p>
          </div>
          <div className="flex items-center gap-2">
            {status.kind === "queued" && <Badge tone="amber">{offlineText.queuedBadge}</Badge>}
            <PositionStatusBadge status={window} />
          </div>
        </div>

        <div className="space-y-4 px-5 py-4">
          {position.candidates.length === 0 ? (
            <p className="py-4 text-center text-slate-600">No candidates available for this position.</p>
          ) : (
            <BallotChoices
              position={position}
              headingId={headingId}
              checked={checkedId}
              disabled={choiceDisabled}
              onChoose={(value) => {
                if (!selecting) warmSchemas();
                setSelected(value);
                setError(null);
                if (selecting) onCast(castOf(value, position));
              }}
            />
          )}

          {closedReason && status.kind !== "voted" && (
            <p className="rounded-lg bg-slate-100 px-3 py-2.5 text-sm text-slate-800">{closedReason}</p>
          )}

          <div aria-live="polite">
            {error && <p className="text-sm font-medium text-red-700">{error}</p>}
            {selecting?.chosen && (
              <div className="space-y-2 rounded-lg bg-indigo-50 px-3 py-2.5 text-sm text-indigo-950">
                <p className="font-medium">Selected: {voteLabel(selecting.chosen)}</p>
                <p>{messages.stationSelectionNote}</p>
                <Button type="button" variant="secondary" size="sm" onClick={selecting.onClear}>
                  Clear selection
                </Button>
              </div>
            )}
            {status.kind === "voted" && (
              <p className="rounded-lg bg-green-50 px-3 py-2.5 text-sm font-medium text-green-800">
                ✓ Your vote has been recorded
                {voteLabel(status.vote) && <span className="font-normal"> for {voteLabel(status.vote)}</span>}
              </p>
            )}
            {status.kind === "voted" && status.vote.receipt && <ReceiptCode code={status.vote.receipt} />}
            {status.kind === "voted" && status.note && (
              <p className="mt-2 rounded-lg bg-blue-50 px-3 py-2.5 text-sm text-blue-900">{status.note}</p>
            )}
            {status.kind === "queued" && (
              <p className="rounded-lg bg-amber-50 px-3 py-2.5 text-sm font-medium text-amber-900">
                {offlineText.queued}
                {voteLabel(status.vote) && <span className="font-normal"> (your choice: {voteLabel(status.vote)})</span>}
              </p>
            )}
            {status.kind === "failed" && (
              <p role="alert" className="rounded-lg bg-red-50 px-3 py-2.5 text-sm font-medium text-red-800">
                Your vote for {voteLabel(status.vote)} was not accepted: {status.message}
              </p>
            )}
          </div>

          {position.candidates.length > 0 && !selecting && (
            <Button
              type="submit"
              className="w-full sm:w-auto"
              variant={status.kind === "voted" ? "secondary" : "primary"}
              disabled={!selected || locked || window !== "active"}
            >
              {casting ? "Casting Vote..." : status.kind === "voted" ? "Vote Cast" : status.kind === "queued" ? "Queued" : "Cast Vote"}
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
