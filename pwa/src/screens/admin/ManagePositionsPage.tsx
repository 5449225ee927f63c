import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { messages, positionStatus, type Position } from "@evoting/shared";
import { api } from "../../api/client";
import { adminPositionsQuery } from "../../data/queries";
import { formatShortDateTime, localTimeZone } from "../../lib/format";
import { useNow } from "../../hooks/use-now";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { PositionStatusBadge } from "../../components/election/PositionStatusBadge";
import { ManageHeader } from "../../components/admin/ManageHeader";
import { ConfirmDeleteDialog } from "../../components/admin/ConfirmDeleteDialog";
import { ManageTable } from "../../components/admin/ManageTable";
import { useDeleteDialog } from "../../components/admin/use-delete-dialog";
import { EditPositionDialog } from "../../components/admin/EditPositionDialog";
import { methodSummary } from "../../lib/ballot-method";

export function ManagePositionsPage() {
  const now = useNow(30_000);
  const query = useQuery(adminPositionsQuery());
  const { online, selected, busy, ask, dialog } = useDeleteDialog<Position>({
    request: (id) => api.deletePosition(id),
    success: messages.deletePositionSuccess,
    failed: messages.deletePositionFailed,
  });

  const count = selected?.candidates.length ?? 0;
  // A position holding ballots cannot be deleted (the API refuses it): the dialog says so instead.
  const ballots = selected?.ballots ?? 0;
  const [editing, setEditing] = useState<Position | null>(null);

  return (
    <div>
      <ManageHeader title="Manage Positions" description="Every position, its voting window and its candidates." createLabel="Create New Position" createTo="/admin/positions" />
      <NeedsNetwork online={online} className="mb-4" />
      <ManageTable
        query={query}
        loading="Loading positions..."
        failed={messages.loadPositionsFailed}
        empty="No positions created yet."
        columns={["Position Title", "Voting Method", "Start Time", "End Time", "Candidates", "Status"]}
        minWidth="min-w-[52rem]"
        caption={<caption className="sr-only">Positions, times in {localTimeZone()}</caption>}
        name={(p) => p.title}
        deleteDisabled={busy}
        onDelete={ask}
        onEdit={online ? setEditing : undefined}
        cells={(p) => (
          <>
            <td className="px-5 py-3 font-semibold text-slate-900">{p.title}</td>
            <td className="px-5 py-3 text-slate-700">{methodSummary(p)}</td>
            <td className="px-5 py-3 text-slate-700">{formatShortDateTime(p.startTime)}</td>
            <td className="px-5 py-3 text-slate-700">{formatShortDateTime(p.endTime)}</td>
            <td className="px-5 py-3 tabular-nums text-slate-700">{p.method === "referendum" ? "—" : p.candidates.length}</td>
            <td className="px-5 py-3">
              <PositionStatusBadge status={positionStatus(now, Date.parse(p.startTime), Date.parse(p.endTime))} />
            </td>
          </>
        )}
      />

      <EditPositionDialog position={editing} onClose={() => setEditing(null)} />
      <ConfirmDeleteDialog title="Delete Position" confirmLabel="Delete Position" refused={ballots > 0} {...dialog}>
        {ballots > 0 ? (
          <>
            <p>
              The position &quot;{selected?.title}&quot; holds {ballots} ballot{ballots === 1 ? "" : "s"} and cannot be deleted.
            </p>
            <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">
              Votes cast are kept so the result can be defended. To stop voting here, close the position by editing its end time. A position can be deleted only before anyone votes in it.
            </p>
          </>
        ) : (
          <>
            <p>Are you sure you want to delete the position &quot;{selected?.title}&quot;?</p>
            <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">
              All associated candidates ({count}) will also be deleted.
            </p>
            <p className="font-medium">This action cannot be undone.</p>
          </>
        )}
      </ConfirmDeleteDialog>
    </div>
  );
}
