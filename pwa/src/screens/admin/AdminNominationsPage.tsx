import { useState } from "react";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MAX_REASON_LENGTH, NOMINATION_STATES, nominationMessages as m, rejectNominationSchema, type Nomination, type NominationState } from "@evoting/shared";
import { nominationsApi, type NominationFilters } from "../../api/nominations";
import { adminNominationsQuery, invalidateNominations } from "../../data/nominations";
import { adminPositionsQuery } from "../../data/queries";
import { nominationsSearch, withoutDefaults, type NominationsSearch } from "../../data/list-search";
import { notifyError, notifySuccess } from "../../lib/notify";
import { formatDateTime } from "../../lib/format";
import { useOnline } from "../../hooks/use-online";
import { useCanWriteAdmin } from "../../auth/use-session";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { ConfirmDeleteDialog } from "../../components/admin/ConfirmDeleteDialog";
import { FormDialog } from "../../components/admin/FormDialog";
import { ManageTableHead } from "../../components/admin/ManageTable";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { NominationStateBadge } from "../../components/nominations/NominationStateBadge";
import { Avatar } from "../../components/ui/Avatar";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { SelectField, SelectOptions, TextAreaField } from "../../components/ui/Field";
import { PageHeader } from "../../components/ui/PageHeader";
import { StateMessage } from "../../components/ui/Spinner";

const STATE_NAMES: Record<NominationState, string> = {
  awaiting: "Awaiting proposer/seconder",
  submitted: "Submitted",
  approved: "Approved",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
};

const toFilters = (search: unknown): NominationFilters => {
  const s = nominationsSearch((search ?? {}) as Record<string, unknown>);
  return { state: s.state ?? "", positionId: s.positionId ?? "" };
};

const toSearch = (f: NominationFilters): NominationsSearch => withoutDefaults<NominationsSearch & { page?: number }>({ state: f.state || undefined, positionId: f.positionId });

/** /admin/nominations: the committee screens applications; observers read. */
export function AdminNominationsPage() {
  const online = useOnline();
  const canWrite = useCanWriteAdmin();
  const navigate = useNavigate();
  const client = useQueryClient();
  // Filters live in the URL (data/list-search.ts), like Manage Voters'.
  const filters = toFilters(useSearch({ strict: false }));
  const setFilters = (next: Partial<NominationFilters>) => void navigate({ to: ".", search: (prev: unknown) => toSearch({ ...toFilters(prev), ...next }) });
  const query = useQuery(adminNominationsQuery(filters));
  const positions = useQuery(adminPositionsQuery());
  const [approving, setApproving] = useState<Nomination | null>(null);
  const [rejecting, setRejecting] = useState<Nomination | null>(null);

  const approve = useMutation({
    mutationFn: (n: Nomination) => nominationsApi.approve(n._id),
    onSuccess: () => {
      setApproving(null);
      notifySuccess(m.approveSuccess);
      void invalidateNominations(client);
    },
    onError: (e) => notifyError(e, m.approveFailed),
  });

  const filtered = Boolean(filters.state || filters.positionId);
  return (
    <div>
      <PageHeader title="Nominations" description="Screen applications to stand: approve one to make the applicant a candidate, or reject it with a reason they will read." actions={<BackToAdminButton />} />
      <NeedsNetwork online={online} className="mb-4" />
      <div role="search" aria-label="Filter nominations" className="mb-4 grid gap-3 sm:grid-cols-2">
        <SelectField
          label="State"
          value={filters.state}
          onChange={(e) => setFilters({ state: e.target.value as NominationFilters["state"] })}
        >
          <SelectOptions placeholder="All states" options={NOMINATION_STATES.map((s) => ({ _id: s, title: STATE_NAMES[s] }))} />
        </SelectField>
        <SelectField
          label="Position"
          value={filters.positionId}
          onChange={(e) => setFilters({ positionId: e.target.value })}
        >
          <SelectOptions placeholder="All positions" options={positions.data ?? []} />
        </SelectField>
      </div>

      <Card className="overflow-hidden">
        {query.isPending ? (
          <StateMessage busy>Loading nominations...</StateMessage>
        ) : query.isError ? (
          <StateMessage>{m.loadNominationsFailed}</StateMessage>
        ) : query.data.length === 0 ? (
          <StateMessage>{filtered ? "No nominations match these filters." : "No nominations yet."}</StateMessage>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[56rem] text-left text-sm">
              <ManageTableHead columns={["Applicant", "Position", "Proposer and seconder", "State", "Submitted"]} actions={canWrite} />
              <tbody className="divide-y divide-slate-100">
                {query.data.map((n) => (
                  <NominationRow key={n._id} n={n} canWrite={canWrite} disabled={approve.isPending || !online} onApprove={setApproving} onReject={setRejecting} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <ConfirmDeleteDialog
        open={approving !== null}
        title="Approve Nomination"
        confirmLabel="Approve"
        pendingLabel="Approving..."
        tone="change"
        pending={approve.isPending || !online}
        onOpenChange={(open) => !open && setApproving(null)}
        onConfirm={() => approving && approve.mutate(approving)}
      >
        <p>
          Approve &quot;{approving?.applicant.name}&quot; for {approving?.positionTitle}?
        </p>
        <p>They become a candidate of the position, with the photo and manifesto of their application.</p>
      </ConfirmDeleteDialog>

      <RejectDialog nomination={rejecting} onClose={() => setRejecting(null)} />
    </div>
  );
}

interface RowProps {
  n: Nomination;
  canWrite: boolean;
  disabled: boolean;
  onApprove: (n: Nomination) => void;
  onReject: (n: Nomination) => void;
}

function NominationRow({ n, canWrite, disabled, onApprove, onReject }: RowProps) {
  const supporters = [n.proposer && ["Proposer", n.proposer] as const, n.seconder && ["Seconder", n.seconder] as const].filter((s) => s !== null);
  return (
    <tr className="align-top hover:bg-slate-50">
      <td className="px-5 py-3">
        <div className="flex items-start gap-3">
          <Avatar src={n.photo} name={n.applicant.name} className="size-10" />
          <div className="min-w-0">
            <p className="font-medium text-slate-900">{n.applicant.name}</p>
            <p className="text-slate-600">{n.applicant.matricNumber}</p>
            <details className="mt-1">
              <summary className="focus-ring cursor-pointer rounded text-indigo-700">Manifesto</summary>
              <p className="mt-1 max-w-md whitespace-pre-wrap text-slate-700">{n.manifesto}</p>
            </details>
          </div>
        </div>
      </td>
      <td className="px-5 py-3 text-slate-900">{n.positionTitle}</td>
      <td className="px-5 py-3 text-slate-700">
        {supporters.length === 0
          ? "None"
          : supporters.map(([role, s]) => (
              <p key={role}>
                {role}: {s.name} ({s.matricNumber}), {s.answer}
              </p>
            ))}
      </td>
      <td className="px-5 py-3">
        <NominationStateBadge nomination={n} />
        {n.state === "rejected" && n.reason && <p className="mt-1 max-w-xs text-slate-700">Reason: {n.reason}</p>}
      </td>
      <td className="min-w-[8rem] px-5 py-3 text-slate-700">{formatDateTime(n.submittedAt)}</td>
      {canWrite && (
        // The buttons one above the other and the date free to wrap: side by side, the table ran
        // past a 1280 px screen and cut 'Approve' to 'Appro'.
        <td className="px-5 py-2 text-right">
          <div className="flex flex-col items-end gap-1">
            {n.state === "submitted" && (
              <Button variant="ghost" size="sm" aria-label={`Approve ${n.applicant.name}`} disabled={disabled} onClick={() => onApprove(n)}>
                Approve
              </Button>
            )}
            {(n.state === "submitted" || n.state === "awaiting") && (
              <Button variant="danger-ghost" size="sm" aria-label={`Reject ${n.applicant.name}`} disabled={disabled} onClick={() => onReject(n)}>
                Reject
              </Button>
            )}
          </div>
        </td>
      )}
    </tr>
  );
}

function RejectDialog({ nomination, onClose }: { nomination: Nomination | null; onClose: () => void }) {
  const online = useOnline();
  const client = useQueryClient();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const reject = useMutation({
    mutationFn: (fields: { id: string; reason: string }) => nominationsApi.reject(fields.id, fields.reason),
    onSuccess: () => {
      notifySuccess(m.rejectSuccess);
      void invalidateNominations(client);
      close();
    },
    onError: (e) => notifyError(e, m.rejectFailed),
  });
  const close = () => {
    setReason("");
    setError(undefined);
    onClose();
  };
  const submit = () => {
    const parsed = rejectNominationSchema.safeParse({ reason });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    if (nomination) reject.mutate({ id: nomination._id, reason: parsed.data.reason });
  };
  return (
    <FormDialog
      open={nomination !== null}
      title="Reject Nomination"
      submitLabel="Reject"
      pendingLabel="Rejecting..."
      pending={reject.isPending || !online}
      onSubmit={submit}
      onOpenChange={(open) => !open && close()}
    >
      <p className="text-sm text-slate-700">
        Reject &quot;{nomination?.applicant.name}&quot; for {nomination?.positionTitle}? The applicant reads your reason in the app.
      </p>
      <TextAreaField
        label="Reason"
        name="reason"
        rows={3}
        maxLength={MAX_REASON_LENGTH}
        error={error}
        hint={`Required, up to ${MAX_REASON_LENGTH} characters.`}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
    </FormDialog>
  );
}
