import { useQuery } from "@tanstack/react-query";
import { canViewAdmin } from "@evoting/shared";
import { useSession } from "../../auth/use-session";
import { formatInteger } from "../../lib/format";
import { stationApi } from "../../station/station-api";
import { Card, CardHeader } from "../ui/Card";

/** Ballots taken per polling station, for admins and observers only. */
export function StationBallots() {
  const allowed = canViewAdmin(useSession()?.user.role);
  const tally = useQuery({ queryKey: ["admin", "stations", "ballots"], queryFn: stationApi.tally, enabled: allowed, refetchInterval: 30_000 });
  if (!allowed || !tally.data || tally.data.stations.length === 0) return null;
  return (
    <Card className="mt-6" data-testid="station-ballots">
      <CardHeader title="Ballots per polling station" description={`${formatInteger(tally.data.total)} ballots taken at stations`} />
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Ballots taken per polling station</caption>
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-5 py-2">
              Station
            </th>
            <th scope="col" className="px-5 py-2 text-right">
              Ballots
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {tally.data.stations.map((s) => (
            <tr key={s._id}>
              <td className="px-5 py-2">
                {s.name}
                {s.revoked && <span className="text-slate-600"> (revoked)</span>}
              </td>
              <td className="px-5 py-2 text-right tabular-nums">{formatInteger(s.ballotsTaken)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
