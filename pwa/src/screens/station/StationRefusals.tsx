import { Card, CardHeader } from "../../components/ui/Card";
import type { StationRefusal } from "../../station/station-db";
import { formatClock } from "../../offline/freshness";

/** Positions the server refused on arrival: voter and position, never the choice. */
export function StationRefusals({ refusals }: { refusals: readonly StationRefusal[] }) {
  return (
    <Card>
      <CardHeader title="Refused ballots" description="Ballots the server refused, for this device's stations: who and which position, never the choice." />
      <ul aria-live="polite" data-testid="station-refusals" className="divide-y divide-slate-100">
        {refusals.length === 0 && <li className="px-5 py-3 text-sm text-slate-600">No refusals.</li>}
        {refusals.map((r) => (
          <li key={r.id} className="px-5 py-3 text-sm">
            <span className="font-medium text-slate-900">
              {r.voter.name} ({r.voter.matricNumber})
            </span>
            {" · "}
            {r.positionTitle || "Whole ballot"}: <span className="text-red-800">{r.message}</span>
            <span className="text-slate-500"> · {formatClock(r.at)}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
