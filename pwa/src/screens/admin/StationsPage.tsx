/**
 * /admin/stations: polling stations. Create one by name, assign officers (admins,
 * observers or officers, by matric number), remove them, revoke a station at any time; the
 * ballots each station took. Observers see everything and change nothing.
 */
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { canWriteAdmin, createStationSchema, messages, type StationInfo } from "@evoting/shared";
import { notifyError, notifySuccess } from "../../lib/notify";
import { useOnline } from "../../hooks/use-online";
import { useSession } from "../../auth/use-session";
import { formatShortDateTime } from "../../lib/format";
import { stationApi } from "../../station/station-api";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { PageHeader } from "../../components/ui/PageHeader";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { ConfirmDeleteDialog } from "../../components/admin/ConfirmDeleteDialog";
import { TextField } from "../../components/ui/Field";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Card, CardHeader } from "../../components/ui/Card";
import { StateMessage } from "../../components/ui/Spinner";
import { StationDevices } from "./StationDevices";

export const stationsKey = ["admin", "stations"] as const;

export function StationsPage() {
  const online = useOnline();
  const canWrite = canWriteAdmin(useSession()?.user.role);
  const client = useQueryClient();
  const stations = useQuery({ queryKey: stationsKey, queryFn: stationApi.list });
  const [revoking, setRevoking] = useState<StationInfo | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ["admin", "stations"] });

  const revoke = useMutation({
    mutationFn: (id: string) => stationApi.revoke(id),
    onSuccess: () => {
      setRevoking(null);
      notifySuccess(messages.revokeStationSuccess);
      void refresh();
    },
    onError: (e) => notifyError(e, messages.revokeStationFailed),
  });

  return (
    <div className="space-y-6">
      <PageHeader title="Polling Stations" description="Staffed devices where any voter can vote, even with the network down." actions={<BackToAdminButton />} />
      <NeedsNetwork online={online} />
      {canWrite && <CreateStationForm disabled={!online} onCreated={refresh} />}
      {canWrite && <ImportBallotsForm disabled={!online} onImported={refresh} />}
      {stations.isPending ? (
        <Card>
          <StateMessage busy>Loading polling stations...</StateMessage>
        </Card>
      ) : stations.isError ? (
        <Card>
          <StateMessage>{messages.loadStationsFailed}</StateMessage>
        </Card>
      ) : stations.data.length === 0 ? (
        <Card>
          <StateMessage>No polling stations yet.</StateMessage>
        </Card>
      ) : (
        <ul className="space-y-4">
          {stations.data.map((s) => (
            <li key={s._id}>
              <StationCard station={s} canWrite={canWrite && online} onChanged={refresh} onRevoke={() => setRevoking(s)} />
            </li>
          ))}
        </ul>
      )}
      <StationDevices canWrite={canWrite && online} />
      <ConfirmDeleteDialog
        title="Revoke Station"
        confirmLabel="Revoke Station"
        pendingLabel="Revoking..."
        open={revoking !== null}
        pending={revoke.isPending}
        onOpenChange={(open) => !open && setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking._id)}
      >
        <p>Revoke the polling station &quot;{revoking?.name}&quot;?</p>
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">
          Its devices stop taking ballots at once, and ballots it has not delivered yet will be refused.
        </p>
        <p className="font-medium">This action cannot be undone.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}

/** A station's exported ballot file (USB stick): each sealed ballot is checked and counted once, as if its device had delivered it. */
function ImportBallotsForm({ disabled, onImported }: { disabled: boolean; onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [report, setReport] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: async (chosen: File) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await chosen.text());
      } catch {
        throw new Error(messages.stationFileInvalid);
      }
      return stationApi.importFile(parsed);
    },
    onSuccess: (answer) => {
      setReport(answer.message);
      notifySuccess(answer.message);
      onImported();
    },
    onError: (e) => {
      setReport(null);
      if (e instanceof Error && e.message === messages.stationFileInvalid) setError(e.message);
      else notifyError(e, messages.stationImportFailed);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setError("Choose a station ballot file");
    setError(undefined);
    send.mutate(file);
  };
  return (
    <Card>
      <CardHeader title="Import station ballots" description="A file a station exported when it could not reach the server. Each ballot counts once, however often it is imported or delivered." />
      <form onSubmit={submit} aria-label="Import station ballots" className="flex flex-wrap items-end gap-3 px-5 py-4" noValidate>
        <div className="min-w-64 flex-1">
          <TextField label="Station ballot file" type="file" accept=".json,application/json" onChange={(e) => setFile(e.target.files?.[0] ?? null)} error={error} />
        </div>
        <Button type="submit" disabled={disabled || send.isPending}>
          {send.isPending ? "Importing..." : "Import Ballots"}
        </Button>
      </form>
      {report && (
        <p role="status" data-testid="station-import-report" className="px-5 pb-4 text-sm text-green-800">
          {report}
        </p>
      )}
    </Card>
  );
}

function CreateStationForm({ disabled, onCreated }: { disabled: boolean; onCreated: () => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | undefined>();
  const create = useMutation({
    mutationFn: (value: string) => stationApi.create(value),
    onSuccess: () => {
      setName("");
      notifySuccess(messages.createStationSuccess);
      onCreated();
    },
    onError: (e) => notifyError(e, messages.createStationFailed),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createStationSchema.safeParse({ name });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    create.mutate(parsed.data.name);
  };
  return (
    <Card>
      <CardHeader title="Create a station" />
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 px-5 py-4" noValidate>
        <div className="min-w-64 flex-1">
          <TextField label="Station name" placeholder="Library Hall 1" value={name} onChange={(e) => setName(e.target.value)} error={error} />
        </div>
        <Button type="submit" disabled={disabled || create.isPending}>
          {create.isPending ? "Creating..." : "Create Station"}
        </Button>
      </form>
    </Card>
  );
}

function StationCard({ station, canWrite, onChanged, onRevoke }: { station: StationInfo; canWrite: boolean; onChanged: () => void; onRevoke: () => void }) {
  const [matric, setMatric] = useState("");
  const live = station.revokedAt === null;
  const assign = useMutation({
    mutationFn: () => stationApi.assign(station._id, matric.trim()),
    onSuccess: () => {
      setMatric("");
      notifySuccess(messages.assignOfficerSuccess);
      onChanged();
    },
    onError: (e) => notifyError(e, messages.assignOfficerFailed),
  });
  const unassign = useMutation({
    mutationFn: (userId: string) => stationApi.unassign(station._id, userId),
    onSuccess: () => {
      notifySuccess(messages.removeOfficerSuccess);
      onChanged();
    },
    onError: (e) => notifyError(e, messages.removeOfficerFailed),
  });

  return (
    <Card data-testid={`station-${station.name}`}>
      <CardHeader
        title={station.name}
        description={`Created ${formatShortDateTime(station.createdAt)} · ${station.ballotsTaken} ballots taken`}
        action={
          <div className="flex items-center gap-2">
            {live ? <Badge tone="green">Live</Badge> : <Badge tone="red">Revoked {formatShortDateTime(station.revokedAt!)}</Badge>}
            {live && canWrite && (
              <Button variant="danger-ghost" size="sm" onClick={onRevoke}>
                Revoke
              </Button>
            )}
          </div>
        }
      />
      <div className="space-y-3 px-5 py-4">
        <h3 className="text-sm font-semibold text-slate-800">Officers</h3>
        <ul className="divide-y divide-slate-100 text-sm">
          {station.officers.length === 0 && <li className="py-2 text-slate-600">No officers assigned.</li>}
          {station.officers.map((o) => (
            <li key={o._id} className="flex items-center justify-between gap-3 py-2">
              <span>
                {o.name} <span className="text-slate-600">({o.matricNumber}, {o.role})</span>
              </span>
              {canWrite && (
                <Button variant="danger-ghost" size="sm" aria-label={`Remove ${o.name}`} disabled={unassign.isPending} onClick={() => unassign.mutate(o._id)}>
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
        {live && canWrite && (
          <form
            className="flex flex-wrap items-end gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              if (matric.trim()) assign.mutate();
            }}
          >
            <div className="min-w-56 flex-1">
              <TextField label={`Officer matric number for ${station.name}`} value={matric} onChange={(e) => setMatric(e.target.value)} hint="An admin, observer or officer account." />
            </div>
            <Button type="submit" variant="secondary" disabled={!matric.trim() || assign.isPending}>
              Assign Officer
            </Button>
          </form>
        )}
      </div>
    </Card>
  );
}
