import { useState } from "react";
import { Button } from "../../components/ui/Button";
import { Card, CardHeader } from "../../components/ui/Card";
import { download, exportQueue } from "../../station/station-export";
import type { QueuedBallot } from "../../station/station-db";
import { formatClock } from "../../offline/freshness";

/** Ballots still on this device, sealed, each with why it has not been delivered yet. Never a choice. */
export function StationQueue({ queue }: { queue: readonly QueuedBallot[] }) {
  const [exported, setExported] = useState<string | null>(null);
  if (queue.length === 0) return null;
  const save = async () => {
    const files = await exportQueue();
    for (const { name, file } of files) download(name, file);
    setExported(`Saved ${files.map((f) => f.name).join(", ")}. Give it to an admin to import on the Polling Stations page.`);
  };
  return (
    <Card>
      <CardHeader
        title="Ballots on this device"
        description="Sealed ballots not delivered yet. They stay here until an officer of their station delivers them, or an admin imports them from a file."
        action={
          <Button variant="secondary" onClick={() => void save()}>
            Export ballots to a file
          </Button>
        }
      />
      {exported && (
        <p role="status" className="px-5 pt-3 text-sm text-green-800">
          {exported}
        </p>
      )}
      <ul aria-live="polite" data-testid="station-waiting" className="divide-y divide-slate-100">
        {queue.map((q) => (
          <li key={q.ballotId} className="px-5 py-3 text-sm">
            <span className="font-medium text-slate-900">
              {q.voter.name} ({q.voter.matricNumber})
            </span>
            <span className="text-slate-500"> · taken {formatClock(q.queuedAt)}</span>
            {" · "}
            <span className="text-amber-900">{q.waiting ?? "Waiting to be delivered"}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
