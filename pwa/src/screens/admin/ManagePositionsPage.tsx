import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { messages, positionStatus, type Position } from "@evoting/shared";
import { api } from "../../lib/api-client";
import { adminPositionsQuery, invalidateElectionData } from "../../lib/queries";
import { notifyError, notifySuccess } from "../../lib/notify";
import { formatShortDateTime, localTimeZone } from "../../lib/format";
import { useNow } from "../../lib/use-now";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { Button } from "../../components/ui/Button";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { useOnline } from "../../lib/use-online";
import { Icon } from "../../components/ui/Icon";
import { StateMessage } from "../../components/ui/Spinner";
import { PositionStatusBadge } from "../../components/election/PositionStatusBadge";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { ConfirmDeleteDialog } from "../../components/admin/ConfirmDeleteDialog";

export function ManagePositionsPage() {
  const online = useOnline();
  const client = useQueryClient();
  const navigate = useNavigate();
  const now = useNow(30_000);
  const { data: positions, isPending, isError } = useQuery(adminPositionsQuery());
  const [selected, setSelected] = useState<Position | null>(null);

  const remove = useMutation({
    mutationFn: (id: string) => api.deletePosition(id),
    onSuccess: () => {
      setSelected(null);
      notifySuccess(messages.deletePositionSuccess);
      void invalidateElectionData(client);
    },
    onError: (e) => notifyError(e, messages.deletePositionFailed),
  });

  const count = selected?.candidates.length ?? 0;

  return (
    <div>
      <PageHeader
        title="Manage Positions"
        description="Every position, its voting window and its candidates."
        actions={
          <>
            <BackToAdminButton />
            <Button onClick={() => void navigate({ to: "/admin/positions" })}>
              <Icon name="plus" className="size-4" />
              Create New Position
            </Button>
          </>
        }
      />
      <NeedsNetwork online={online} className="mb-4" />
      <Card className="overflow-hidden">
        {isPending ? (
          <StateMessage busy>Loading positions...</StateMessage>
        ) : isError ? (
          <StateMessage>{messages.loadPositionsFailed}</StateMessage>
        ) : positions.length === 0 ? (
          <StateMessage>No positions created yet.</StateMessage>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">Positions, times in {localTimeZone()}</caption>
              <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
                <tr>
                  {["Position Title", "Start Time", "End Time", "Candidates", "Status", "Actions"].map((h) => (
                    <th key={h} scope="col" className={`px-5 py-3 ${h === "Actions" ? "text-right" : ""}`}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {positions.map((p) => (
                  <tr key={p._id} className="hover:bg-slate-50">
                    <td className="px-5 py-3 font-semibold text-slate-900">{p.title}</td>
                    <td className="px-5 py-3 text-slate-700">{formatShortDateTime(p.startTime)}</td>
                    <td className="px-5 py-3 text-slate-700">{formatShortDateTime(p.endTime)}</td>
                    <td className="px-5 py-3 tabular-nums text-slate-700">{p.candidates.length}</td>
                    <td className="px-5 py-3">
                      <PositionStatusBadge status={positionStatus(now, Date.parse(p.startTime), Date.parse(p.endTime))} />
                    </td>
                    <td className="px-5 py-3 text-right">
                      <Button
                        variant="danger-ghost"
                        size="sm"
                        aria-label={`Delete ${p.title}`}
                        disabled={remove.isPending || !online}
                        onClick={() => setSelected(p)}
                      >
                        <Icon name="trash" className="size-4" />
                        Delete
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <ConfirmDeleteDialog
        open={selected !== null}
        title="Delete Position"
        confirmLabel="Delete Position"
        pending={remove.isPending || !online}
        onOpenChange={(open) => !open && setSelected(null)}
        onConfirm={() => selected && remove.mutate(selected._id)}
      >
        <p>Are you sure you want to delete the position &quot;{selected?.title}&quot;?</p>
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">
          All associated candidates ({count}) will also be deleted.
        </p>
        <p className="font-medium">This action cannot be undone.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}
