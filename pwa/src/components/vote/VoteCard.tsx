import { useId, useState, type FormEvent } from "react";
import { castVoteSchema, messages, positionStatus, type BallotPosition, type PositionStatus } from "@evoting/shared";
import type { PositionVoteStatus } from "../../lib/vote-status";
import { offlineText } from "../../offline/notices";
import { Badge } from "../ui/Badge";
import { formatDateTime, localTimeZone } from "../../lib/format";
import { cx } from "../../lib/cx";
import { Avatar } from "../ui/Avatar";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { PositionStatusBadge } from "../election/PositionStatusBadge";
import { Icon } from "../ui/Icon";
import { ReceiptCode } from "./ReceiptCode";

interface VoteCardProps {
  position: BallotPosition;
  status: PositionVoteStatus;
  now: number;
  onCast: (choice: { candidateId: string; candidateName: string }) => void;
}

/** Why a position cannot take votes right now, in the voter's local time with the zone named. */
export function windowClosedReason(window: PositionStatus, position: Pick<BallotPosition, "startTime" | "endTime">) {
  if (window === "upcoming") return `${messages.votingNotStarted}. It opens on ${formatDateTime(position.startTime)} (${localTimeZone()}).`;
  if (window === "ended") return `${messages.votingEnded}. It closed on ${formatDateTime(position.endTime)} (${localTimeZone()}).`;
  return null;
}

export function VoteCard({ position, status, now, onCast }: VoteCardProps) {
  const headingId = useId();
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const window = positionStatus(now, Date.parse(position.startTime), Date.parse(position.endTime));
  const closedReason = windowClosedReason(window, position);
  const recorded = status.kind === "voted" || status.kind === "queued" || status.kind === "failed" ? status.vote : null;
  const locked = status.kind === "voted" || status.kind === "queued" || status.kind === "casting";
  const casting = status.kind === "casting";
  const choiceDisabled = locked || window !== "active";
  const checkedId = recorded?.candidateId ?? selected;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (status.kind === "voted" || status.kind === "queued") {
      setError(messages.alreadyVoted);
      return;
    }
    const parsed = castVoteSchema.safeParse({ positionId: position._id, candidateId: selected ?? "" });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? messages.selectCandidate);
      return;
    }
    setError(null);
    const candidate = position.candidates.find((c) => c._id === parsed.data.candidateId);
    onCast({ candidateId: parsed.data.candidateId ?? "", candidateName: candidate?.name ?? "" });
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
            <fieldset disabled={choiceDisabled} role="radiogroup" aria-labelledby={headingId}>
              <legend className="mb-3 text-sm text-slate-600">Select one candidate for this position</legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {position.candidates.map((c) => {
                  const checked = checkedId === c._id;
                  return (
                    <label
                      key={c._id}
                      className={cx(
                        "flex items-center gap-3 rounded-xl border p-3 transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600",
                        checked ? "border-indigo-600 bg-indigo-50" : "border-slate-200 bg-white",
                        choiceDisabled ? "cursor-not-allowed" : "cursor-pointer hover:border-indigo-400",
                        choiceDisabled && !checked && "opacity-70",
                      )}
                    >
                      <input
                        type="radio"
                        name={`position-${position._id}`}
                        value={c._id}
                        checked={checked}
                        onChange={() => {
                          setSelected(c._id);
                          setError(null);
                        }}
                        className="size-4 accent-indigo-600"
                      />
                      <Avatar src={c.photo} name={c.name} className="size-10" decorative />
                      <span className="font-medium text-slate-900">{c.name}</span>
                    </label>
                  );
                })}
              </div>
            </fieldset>
          )}

          {closedReason && status.kind !== "voted" && (
            <p className="rounded-lg bg-slate-100 px-3 py-2.5 text-sm text-slate-800">{closedReason}</p>
          )}

          <div aria-live="polite">
            {error && <p className="text-sm font-medium text-red-700">{error}</p>}
            {status.kind === "voted" && (
              <p className="rounded-lg bg-green-50 px-3 py-2.5 text-sm font-medium text-green-800">
                ✓ Your vote has been recorded
                {status.vote.candidateName && <span className="font-normal"> for {status.vote.candidateName}</span>}
              </p>
            )}
            {status.kind === "voted" && status.vote.receipt && <ReceiptCode code={status.vote.receipt} />}
            {status.kind === "voted" && status.note && (
              <p className="mt-2 rounded-lg bg-blue-50 px-3 py-2.5 text-sm text-blue-900">{status.note}</p>
            )}
            {status.kind === "queued" && (
              <p className="rounded-lg bg-amber-50 px-3 py-2.5 text-sm font-medium text-amber-900">
                {offlineText.queued}
                {status.vote.candidateName && <span className="font-normal"> (your choice: {status.vote.candidateName})</span>}
              </p>
            )}
            {status.kind === "failed" && (
              <p role="alert" className="rounded-lg bg-red-50 px-3 py-2.5 text-sm font-medium text-red-800">
                Your vote for {status.vote.candidateName} was not accepted: {status.message}
              </p>
            )}
          </div>

          {position.candidates.length > 0 && (
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
