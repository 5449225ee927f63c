import { positionStatus, type BallotPosition } from "@evoting/shared";
import type { PositionVoteStatus } from "../../data/vote-status";
import { Badge } from "../ui/Badge";
import { Card, CardHeader } from "../ui/Card";

interface VotingStatusCardProps {
  positions: BallotPosition[];
  statusOf: (positionId: string) => PositionVoteStatus;
  /** The clock a position's close is read by: one closed without this voter's vote says so, not 'Pending'. */
  now?: number;
}

export function VotingStatusCard({ positions, statusOf, now }: VotingStatusCardProps) {
  const voted = positions.filter((p) => statusOf(p._id).kind === "voted").length;
  const queued = positions.filter((p) => statusOf(p._id).kind === "queued").length;
  const total = positions.length;
  const percent = total > 0 ? Math.round((voted / total) * 100) : 0;

  return (
    <Card>
      <CardHeader title="Your Voting Status" />
      <div className="space-y-4 px-5 py-4">
        <div>
          <div className="mb-2 flex items-baseline justify-between text-sm">
            <span id="voting-progress-label" className="font-medium text-slate-700">
              Progress
            </span>
            <span className="font-semibold tabular-nums text-slate-900" data-testid="voting-progress-count">
              {voted}/{total}
            </span>
          </div>
          <div
            role="progressbar"
            aria-labelledby="voting-progress-label"
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuenow={voted}
            aria-valuetext={`${voted} of ${total} positions voted`}
            className="h-2.5 overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full rounded-full bg-green-600 transition-[width] duration-500" style={{ width: `${percent}%` }} />
          </div>
        </div>
        {queued > 0 && (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="voting-queued-count">
            {queued === 1 ? "1 vote is" : `${queued} votes are`} queued on this device and will be sent when you are back online.
          </p>
        )}
        <ul className="divide-y divide-slate-100">
          {positions.map((p) => {
            const status = statusOf(p._id);
            return (
              <li key={p._id} className="flex items-center justify-between gap-3 py-2.5">
                <span className="min-w-0 break-words text-sm font-medium text-slate-800">
                  {p.title}
                  {status.kind === "voted" && status.vote.receipt && (
                    <span className="block text-xs font-normal text-slate-600">
                      Receipt <code className="font-mono font-semibold text-slate-800">{status.vote.receipt}</code>
                    </span>
                  )}
                  {(status.kind === "voted" || status.kind === "queued") && status.vote.tracker && (
                    <span className="block text-xs font-normal text-slate-600" data-testid="status-tracker">
                      Tracker <code className="break-all font-mono font-semibold text-slate-800">{status.vote.tracker}</code>
                    </span>
                  )}
                </span>
                {status.kind === "voted" ? (
                  <Badge tone="green">Voted</Badge>
                ) : status.kind === "queued" ? (
                  <Badge tone="amber">Queued</Badge>
                ) : now !== undefined && positionStatus(now, Date.parse(p.startTime), Date.parse(p.endTime)) === "ended" ? (
                  <Badge tone="gray">Closed, not voted</Badge>
                ) : (
                  <Badge tone="gray">Pending</Badge>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </Card>
  );
}
