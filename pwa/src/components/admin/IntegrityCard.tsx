/**
 * The Admin Panel's integrity check: the last run ('Integrity check passed at ...', or what
 * failed), and 'Run Integrity Check' for admins. The check itself is the server's, with its
 * key: every vote matches exactly one ballot, every ballot its own MAC, tallies equal ballots.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { IntegrityStatus } from "@evoting/shared";
import { request } from "../../api/client";
import { notifyError } from "../../lib/notify";
import { formatShortDateTime } from "../../lib/format";
import { useOnline } from "../../hooks/use-online";
import { Button } from "../ui/Button";
import { Card, CardHeader } from "../ui/Card";
import { StateMessage } from "../ui/Spinner";

const integrityKey = ["admin", "integrity"] as const;
const WHY: Record<NonNullable<IntegrityStatus["trigger"]>, string> = {
  close: "when a position closed",
  declaration: "at the declaration",
  admin: "on request",
  start: "at start",
};

export function IntegrityCard({ canRun }: { canRun: boolean }) {
  const online = useOnline();
  const client = useQueryClient();
  const status = useQuery({ queryKey: integrityKey, queryFn: () => request<IntegrityStatus>("/admin/integrity") });
  const run = useMutation({
    mutationFn: () => request<IntegrityStatus>("/admin/integrity/check", { method: "POST" }),
    onSuccess: (fresh) => client.setQueryData(integrityKey, fresh),
    onError: (e) => notifyError(e, "Failed to run the integrity check"),
  });
  const s = status.data;
  return (
    <Card>
      <CardHeader
        title="Integrity Check"
        description="Every vote matches exactly one ballot, no ballot was changed, and the tallies equal the ballots."
        action={
          canRun && (
            <Button size="sm" variant="secondary" disabled={!online || run.isPending} onClick={() => run.mutate()}>
              {run.isPending ? "Checking..." : "Run Integrity Check"}
            </Button>
          )
        }
      />
      <div className="px-5 py-4 text-sm" role="status">
        {status.isPending ? (
          <StateMessage busy>Loading the last check...</StateMessage>
        ) : status.isError || !s ? (
          <StateMessage>Failed to load the integrity check</StateMessage>
        ) : s.at === null ? (
          <p className="text-slate-700">No integrity check has run yet.</p>
        ) : s.ok ? (
          <p className="font-medium text-green-800">
            Integrity check passed at {formatShortDateTime(s.at)} ({s.trigger ? WHY[s.trigger] : ""}).
          </p>
        ) : (
          <div className="space-y-2">
            <p className="font-medium text-red-800">
              Integrity check failed at {formatShortDateTime(s.at)} ({s.trigger ? WHY[s.trigger] : ""}):
            </p>
            <ul className="list-disc space-y-1 pl-5 text-red-900">
              {s.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </Card>
  );
}
