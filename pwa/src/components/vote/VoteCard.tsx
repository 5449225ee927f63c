import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
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
import { TrackerCode } from "./TrackerCode";
import { BallotReview, MethodBallot } from "./MethodBallot";
import { EMPTY_DRAFT, draftCast, draftOfVote, hasMethodBallot, type MethodDraft } from "./method-draft";
import { choiceBody, type ChoiceFields } from "../../lib/vote-body";

// The cast check (and zod) loads when a choice is first picked, not with the ballot
// (vote-schemas.ts); Cast Vote is disabled until then, so a submit finds it loaded or loading.
const loadSchemas = () => import("./vote-schemas");
const warmSchemas = () => void loadSchemas().catch(() => undefined);

interface VoteCardProps {
  position: BallotPosition;
  status: PositionVoteStatus;
  now: number;
  /** The baseline's candidate (docs/product.md); `choice` for a vote that names none; the marks of a several-seat or ranked ballot. */
  onCast: (choice: ChoiceFields) => void;
  /**
   * The polling station's private ballot: choosing only selects (`onCast` on each
   * choice), nothing is recorded until the ballot is confirmed, so the card says 'Selected: …'
   * and lets the voter change or clear it. Unset on the vote page: the baseline's Cast Vote card.
   */
  selecting?: { chosen: MyVote | null; onClear: () => void };
  /** A verifiable position's credential panel (verifiable/use-verifiable-ballot.tsx), above the buttons. */
  verifiable?: ReactNode;
}

/** Why a position cannot take votes right now, in the voter's local time (the time names its zone). */
export function windowClosedReason(window: PositionStatus, position: Pick<BallotPosition, "startTime" | "endTime">) {
  if (window === "upcoming") return `${messages.votingNotStarted}. It opens on ${formatDateTime(position.startTime)}.`;
  if (window === "ended") return `${messages.votingEnded}. It closed on ${formatDateTime(position.endTime)}.`;
  return null;
}

export function VoteCard({ position, status, now, onCast, selecting, verifiable }: VoteCardProps) {
  const headingId = useId();
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const checking = useRef(false);
  // Several seats, ranked and referendum ballots: the marks so far, and whether the review shows.
  const methodBallot = hasMethodBallot(position);
  const [draft, setDraft] = useState<MethodDraft>(EMPTY_DRAFT);
  const [reviewing, setReviewing] = useState(false);
  const reviewId = useId();

  const window = positionStatus(now, Date.parse(position.startTime), Date.parse(position.endTime));
  const closedReason = windowClosedReason(window, position);
  const recorded = status.kind === "voted" || status.kind === "queued" || status.kind === "failed" ? status.vote : null;
  const locked = status.kind === "voted" || status.kind === "queued" || status.kind === "casting";
  const casting = status.kind === "casting";
  const choiceDisabled = locked || window !== "active";
  const checkedId = selecting ? (selecting.chosen ? valueOfVote(selecting.chosen) : null) : recorded ? valueOfVote(recorded) : selected;
  const shownDraft = selecting ? draftOfVote(selecting.chosen) : status.kind === "voted" || status.kind === "queued" ? draftOfVote(recorded) : draft;
  const drafted = methodBallot ? draftCast(position, shownDraft) : null;
  const hasCandidates = position.candidates.length > 0 || position.method === "referendum";

  const changeDraft = (next: MethodDraft) => {
    setReviewing(false);
    setError(null);
    if (!selecting) {
      warmSchemas();
      setDraft(next);
      return;
    }
    const cast = draftCast(position, next);
    if (cast) onCast(cast);
    else selecting.onClear();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (status.kind === "voted" || status.kind === "queued") {
      setError(messages.alreadyVoted);
      return;
    }
    if (methodBallot && !reviewing) {
      if (!drafted) return;
      // The review comes first; 'Cast Vote' under it casts exactly what it shows.
      setReviewing(true);
      requestAnimationFrame(() => document.getElementById(reviewId)?.focus());
      return;
    }
    // One check at a time: a second press while the check loads does not cast twice.
    if (checking.current) return;
    checking.current = true;
    const cast = methodBallot && drafted ? drafted : castOf(selected ?? "", position);
    const request = { positionId: position._id, ...choiceBody(cast) };
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
          {!hasCandidates ? (
            <p className="py-4 text-center text-slate-600">No candidates available for this position.</p>
          ) : methodBallot ? (
            <MethodBallot position={position} headingId={headingId} draft={shownDraft} disabled={choiceDisabled} onChange={changeDraft} />
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

          {methodBallot && reviewing && drafted && !locked && !selecting && <BallotReview id={reviewId} position={position} draft={shownDraft} />}

          <div aria-live="polite">
            {error && <p className="text-sm font-medium text-red-700">{error}</p>}
            {selecting?.chosen && (
              <div className="space-y-2 rounded-lg bg-indigo-50 px-3 py-2.5 text-sm text-indigo-950">
                <p className="font-medium">Selected: {voteLabel(selecting.chosen, position.method)}</p>
                <p>{messages.stationSelectionNote}</p>
                <Button type="button" variant="secondary" size="sm" onClick={selecting.onClear}>
                  Clear selection
                </Button>
              </div>
            )}
            {status.kind === "voted" && (
              <p className="rounded-lg bg-green-50 px-3 py-2.5 text-sm font-medium text-green-800">
                ✓ Your vote has been recorded
                {voteLabel(status.vote, position.method) && <span className="font-normal"> for {voteLabel(status.vote, position.method)}</span>}
              </p>
            )}
            {status.kind === "voted" && status.vote.receipt && <ReceiptCode code={status.vote.receipt} />}
            {(status.kind === "voted" || status.kind === "queued") && status.vote.tracker && <TrackerCode tracker={status.vote.tracker} />}
            {status.kind === "voted" && status.note && (
              <p className="mt-2 rounded-lg bg-blue-50 px-3 py-2.5 text-sm text-blue-900">{status.note}</p>
            )}
            {status.kind === "queued" && (
              <p className="rounded-lg bg-amber-50 px-3 py-2.5 text-sm font-medium text-amber-900">
                {offlineText.queued}
                {voteLabel(status.vote, position.method) && <span className="font-normal"> (your choice: {voteLabel(status.vote, position.method)})</span>}
              </p>
            )}
            {status.kind === "failed" && (
              <p role="alert" className="rounded-lg bg-red-50 px-3 py-2.5 text-sm font-medium text-red-800">
                Your vote for {voteLabel(status.vote, position.method)} was not accepted: {status.message}
              </p>
            )}
          </div>

          {verifiable}

          {hasCandidates && !selecting && (
            <div className="flex flex-wrap gap-2">
              <Button
                type="submit"
                className="w-full sm:w-auto"
                variant={status.kind === "voted" ? "secondary" : "primary"}
                disabled={!(methodBallot ? drafted : selected) || locked || window !== "active"}
              >
                {casting
                  ? "Casting Vote..."
                  : status.kind === "voted"
                    ? "Vote Cast"
                    : status.kind === "queued"
                      ? "Queued"
                      : methodBallot && !reviewing
                        ? "Review Vote"
                        : "Cast Vote"}
              </Button>
              {methodBallot && reviewing && !locked && (
                <Button type="button" variant="secondary" className="w-full sm:w-auto" onClick={() => setReviewing(false)}>
                  Change
                </Button>
              )}
            </div>
          )}
        </div>
      </form>
    </Card>
  );
}
