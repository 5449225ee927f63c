import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { messages, type Candidate } from "@evoting/shared";
import { api } from "../../api/client";
import { adminCandidatesQuery } from "../../data/queries";
import { Badge } from "../../components/ui/Badge";
import { Avatar } from "../../components/ui/Avatar";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { ManageHeader } from "../../components/admin/ManageHeader";
import { ConfirmDeleteDialog } from "../../components/admin/ConfirmDeleteDialog";
import { ManageTable } from "../../components/admin/ManageTable";
import { useDeleteDialog } from "../../components/admin/use-delete-dialog";
import { EditCandidateDialog } from "../../components/admin/EditCandidateDialog";

export function ManageCandidatesPage() {
  const query = useQuery(adminCandidatesQuery());
  const { online, selected, busy, ask, dialog } = useDeleteDialog<Candidate>({
    request: (id) => api.deleteCandidate(id),
    success: messages.deleteCandidateSuccess,
    failed: messages.deleteCandidateFailed,
  });
  const [editing, setEditing] = useState<Candidate | null>(null);

  return (
    <div>
      <ManageHeader title="Manage Candidates" description="Every candidate and the position they stand for." createLabel="Create New Candidate" createTo="/admin/candidates" />
      <NeedsNetwork online={online} className="mb-4" />
      <ManageTable
        query={query}
        loading="Loading candidates..."
        failed={messages.loadCandidatesFailed}
        empty="No candidates created yet."
        columns={["Photo", "Name", "Position"]}
        minWidth="min-w-[32rem]"
        name={(c) => c.name}
        deleteDisabled={busy}
        onDelete={ask}
        onEdit={online ? setEditing : undefined}
        cells={(c) => {
          const title = c.position?.title ?? c.positionTitle;
          return (
            <>
              <td className="px-5 py-3">
                <Avatar src={c.photo} name={c.name} className="size-10" />
              </td>
              <td className="px-5 py-3 font-semibold text-slate-900">{c.name}</td>
              <td className="px-5 py-3">
                <Badge tone={title ? "indigo" : "gray"}>{title || "Unknown Position"}</Badge>
              </td>
            </>
          );
        }}
      />

      <EditCandidateDialog candidate={editing} onClose={() => setEditing(null)} />
      <ConfirmDeleteDialog title="Delete Candidate" confirmLabel="Delete Candidate" {...dialog}>
        <p>Are you sure you want to delete the candidate &quot;{selected?.name}&quot;?</p>
        <p className="font-medium">This action cannot be undone.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}
