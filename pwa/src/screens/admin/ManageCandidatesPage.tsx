import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { messages, type Candidate } from "@evoting/shared";
import { api } from "../../lib/api-client";
import { adminCandidatesQuery, invalidateElectionData } from "../../lib/queries";
import { notifyError, notifySuccess } from "../../lib/notify";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { Badge } from "../../components/ui/Badge";
import { Avatar } from "../../components/ui/Avatar";
import { Button } from "../../components/ui/Button";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { useOnline } from "../../lib/use-online";
import { Icon } from "../../components/ui/Icon";
import { StateMessage } from "../../components/ui/Spinner";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { ConfirmDeleteDialog } from "../../components/admin/ConfirmDeleteDialog";

export function ManageCandidatesPage() {
  const online = useOnline();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { data: candidates, isPending, isError } = useQuery(adminCandidatesQuery());
  const [selected, setSelected] = useState<Candidate | null>(null);

  const remove = useMutation({
    mutationFn: (id: string) => api.deleteCandidate(id),
    onSuccess: () => {
      setSelected(null);
      notifySuccess(messages.deleteCandidateSuccess);
      void invalidateElectionData(client);
    },
    onError: (e) => notifyError(e, messages.deleteCandidateFailed),
  });

  return (
    <div>
      <PageHeader
        title="Manage Candidates"
        description="Every candidate and the position they stand for."
        actions={
          <>
            <BackToAdminButton />
            <Button onClick={() => void navigate({ to: "/admin/candidates" })}>
              <Icon name="plus" className="size-4" />
              Create New Candidate
            </Button>
          </>
        }
      />
      <NeedsNetwork online={online} className="mb-4" />
      <Card className="overflow-hidden">
        {isPending ? (
          <StateMessage busy>Loading candidates...</StateMessage>
        ) : isError ? (
          <StateMessage>{messages.loadCandidatesFailed}</StateMessage>
        ) : candidates.length === 0 ? (
          <StateMessage>No candidates created yet.</StateMessage>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[32rem] text-left text-sm">
              <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
                <tr>
                  {["Photo", "Name", "Position", "Actions"].map((h) => (
                    <th key={h} scope="col" className={`px-5 py-3 ${h === "Actions" ? "text-right" : ""}`}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {candidates.map((c) => {
                  const title = c.position?.title ?? c.positionTitle;
                  return (
                    <tr key={c._id} className="hover:bg-slate-50">
                      <td className="px-5 py-3">
                        <Avatar src={c.photo} name={c.name} className="size-10" />
                      </td>
                      <td className="px-5 py-3 font-semibold text-slate-900">{c.name}</td>
                      <td className="px-5 py-3">
                        <Badge tone={title ? "indigo" : "gray"}>{title || "Unknown Position"}</Badge>
                      </td>
                      <td className="px-5 py-3 text-right">
                        <Button
                          variant="danger-ghost"
                          size="sm"
                          aria-label={`Delete ${c.name}`}
                          disabled={remove.isPending || !online}
                          onClick={() => setSelected(c)}
                        >
                          <Icon name="trash" className="size-4" />
                          Delete
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <ConfirmDeleteDialog
        open={selected !== null}
        title="Delete Candidate"
        confirmLabel="Delete Candidate"
        pending={remove.isPending || !online}
        onOpenChange={(open) => !open && setSelected(null)}
        onConfirm={() => selected && remove.mutate(selected._id)}
      >
        <p>Are you sure you want to delete the candidate &quot;{selected?.name}&quot;?</p>
        <p className="font-medium">This action cannot be undone.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}
