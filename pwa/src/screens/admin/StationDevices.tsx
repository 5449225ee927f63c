/**
 * The devices stations were opened on (Polling Stations page): an admin reports one lost, and
 * the election committee accepts or rejects the ballots held from it, all at once, seeing how
 * many there are per position and never a choice.
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { messages, type StationDevice } from "@evoting/shared";
import { notifyError, notifySuccess } from "../../lib/notify";
import { formatShortDateTime } from "../../lib/format";
import { stationApi } from "../../station/station-api";
import { ConfirmDeleteDialog } from "../../components/admin/ConfirmDeleteDialog";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Card, CardHeader } from "../../components/ui/Card";
import { StateMessage } from "../../components/ui/Spinner";

export const devicesKey = ["admin", "stations", "devices"] as const;

type Pending = { kind: "lost"; device: StationDevice } | { kind: "accept" | "reject"; device: StationDevice };

export function StationDevices({ canWrite }: { canWrite: boolean }) {
  const client = useQueryClient();
  const devices = useQuery({ queryKey: devicesKey, queryFn: stationApi.devices });
  const [pending, setPending] = useState<Pending | null>(null);
  const act = useMutation({
    mutationFn: (p: Pending) => (p.kind === "lost" ? stationApi.reportLost(p.device._id) : stationApi.decideHeld(p.device._id, p.kind)),
    onSuccess: (answer) => {
      setPending(null);
      notifySuccess(answer.message);
      void client.invalidateQueries({ queryKey: ["admin", "stations"] });
    },
    onError: (e, p) => notifyError(e, p.kind === "lost" ? messages.stationDeviceLostFailed : messages.stationDisputedFailed),
  });

  const held = (d: StationDevice) => d.held.positions.map((p) => `${p.positionTitle || p.positionId} ${p.ballots}`).join(", ");

  return (
    <Card>
      <CardHeader title="Station devices" description="Every device a station was opened on. Report a lost one: what it sends afterwards is held for the election committee." />
      {devices.isPending ? (
        <StateMessage busy>Loading station devices...</StateMessage>
      ) : devices.isError ? (
        <StateMessage>Could not load station devices.</StateMessage>
      ) : devices.data.length === 0 ? (
        <StateMessage>No station has been opened on a device yet.</StateMessage>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="station-devices">
          {devices.data.map((d) => (
            <li key={d._id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-3 text-sm">
              <div className="min-w-0">
                <p className="font-medium text-slate-900">
                  {d.station.name} · {d.officer.name} ({d.officer.matricNumber})
                </p>
                <p className="text-slate-600">
                  Opened {formatShortDateTime(d.openedAt)}
                  {d.closedAt && ` · closed ${formatShortDateTime(d.closedAt)}`}
                </p>
                {d.held.total > 0 && (
                  <p className="text-amber-900">
                    {d.held.total} ballot{d.held.total === 1 ? "" : "s"} held for the committee: {held(d)}
                  </p>
                )}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {d.lostAt ? <Badge tone="red">Lost</Badge> : d.closedAt ? <Badge>Closed</Badge> : <Badge tone="green">Open</Badge>}
                {canWrite && !d.lostAt && (
                  <Button variant="secondary" size="sm" onClick={() => setPending({ kind: "lost", device: d })}>
                    Report lost
                  </Button>
                )}
                {canWrite && d.held.total > 0 && (
                  <>
                    <Button size="sm" onClick={() => setPending({ kind: "accept", device: d })}>
                      Accept held ballots
                    </Button>
                    <Button variant="danger" size="sm" onClick={() => setPending({ kind: "reject", device: d })}>
                      Reject held ballots
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDeleteDialog
        tone={pending?.kind === "accept" ? "change" : "danger"}
        title={pending?.kind === "lost" ? "Report Device Lost" : pending?.kind === "accept" ? "Accept Held Ballots" : "Reject Held Ballots"}
        confirmLabel={pending?.kind === "lost" ? "Report Lost" : pending?.kind === "accept" ? "Accept Ballots" : "Reject Ballots"}
        pendingLabel="Saving..."
        open={pending !== null}
        pending={act.isPending}
        onOpenChange={(open) => !open && setPending(null)}
        onConfirm={() => pending && act.mutate(pending)}
      >
        {pending?.kind === "lost" ? (
          <p>
            Report the device of &quot;{pending.device.station.name}&quot; opened by {pending.device.officer.name} lost? It stops taking ballots that count; whatever it
            sends from now on is held for the election committee.
          </p>
        ) : pending ? (
          <p>
            {pending.kind === "accept" ? "Count" : "Refuse"} all {pending.device.held.total} ballots held from this device ({held(pending.device)})? This cannot be
            undone.
          </p>
        ) : null}
      </ConfirmDeleteDialog>
    </Card>
  );
}
