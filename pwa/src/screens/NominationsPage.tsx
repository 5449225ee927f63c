import { useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { applyNominationSchema, messages, nominationMessages as m, type MyNominations, type Nomination } from "@evoting/shared";
import { nominationsApi } from "../api/nominations";
import { invalidateNominations, myNominationsQuery } from "../data/nominations";
import { notifyError, notifySuccess } from "../lib/notify";
import { fieldErrors, type FieldErrors } from "../lib/form-errors";
import { formatDateTime } from "../lib/format";
import { useOnline } from "../hooks/use-online";
import { PageHeader } from "../components/ui/PageHeader";
import { Card, CardHeader } from "../components/ui/Card";
import { Button } from "../components/ui/Button";
import { SelectField, SelectOptions, TextField } from "../components/ui/Field";
import { StateMessage } from "../components/ui/Spinner";
import { NeedsNetwork } from "../components/NeedsNetwork";
import { ConfirmDeleteDialog } from "../components/admin/ConfirmDeleteDialog";
import { ManifestoField } from "../components/admin/ManifestoField";
import { PhotoField } from "../components/admin/PhotoField";
import { NominationStateBadge } from "../components/nominations/NominationStateBadge";

/** /nominations: 'Apply to stand' while nominations are open, and the voter's own applications. */
export function NominationsPage() {
  const query = useQuery(myNominationsQuery());
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader title="Apply to stand" description="Apply to be a candidate. The election committee screens every application." />
      {query.isPending ? (
        <Card>
          <StateMessage busy>Loading nominations...</StateMessage>
        </Card>
      ) : query.isError ? (
        <Card>
          <StateMessage>{m.loadNominationsFailed}</StateMessage>
        </Card>
      ) : (
        <>
          <Card>{query.data.window.open ? <ApplyForm data={query.data} /> : <ClosedNotice window={query.data.window} />}</Card>
          <MyApplications list={query.data.mine} />
        </>
      )}
    </div>
  );
}

function ClosedNotice({ window }: { window: MyNominations["window"] }) {
  const upcoming = window.start && Date.parse(window.start) > Date.now();
  return (
    <StateMessage>
      {upcoming ? `Nominations open on ${formatDateTime(window.start!)}.` : "Nominations are not open."}
    </StateMessage>
  );
}

type Field = "positionId" | "manifesto" | "proposer" | "seconder" | "photo";

function ApplyForm({ data }: { data: MyNominations }) {
  const online = useOnline();
  const client = useQueryClient();
  const [positionId, setPositionId] = useState("");
  const [manifesto, setManifesto] = useState("");
  const [proposer, setProposer] = useState("");
  const [seconder, setSeconder] = useState("");
  const [photo, setPhoto] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const fileInput = useRef<HTMLInputElement>(null);

  const apply = useMutation({
    mutationFn: nominationsApi.apply,
    onSuccess: () => {
      setPositionId("");
      setManifesto("");
      setProposer("");
      setSeconder("");
      setPhoto(null);
      if (fileInput.current) fileInput.current.value = "";
      notifySuccess(m.applySuccess);
      void invalidateNominations(client);
    },
    // On failure the form keeps everything entered, like a candidate's.
    onError: (e) => notifyError(e, m.applyFailed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = applyNominationSchema.safeParse({ positionId, manifesto, proposer, seconder });
    const next: FieldErrors<Field> = parsed.success ? {} : fieldErrors<Field>(parsed.error);
    if (!photo) next.photo = m.nominationPhotoRequired;
    else if (!photo.type.startsWith("image/")) next.photo = messages.photoInvalid;
    setErrors(next);
    if (!parsed.success || !photo || next.photo) return;
    apply.mutate({ positionId, manifesto, proposer, seconder, photo });
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5 p-6" aria-label="Apply to stand">
      <NeedsNetwork online={online} />
      {data.window.end && <p className="text-sm text-slate-700">Nominations are open until {formatDateTime(data.window.end)}.</p>}
      <SelectField
        label="Position"
        name="positionId"
        error={errors.positionId}
        hint={data.positions.length === 0 ? "No position is taking applications from you now." : undefined}
        value={positionId}
        onChange={(e) => setPositionId(e.target.value)}
      >
        <SelectOptions placeholder="Select a position" options={data.positions} />
      </SelectField>
      <PhotoField label="Your Photo" hint="A photo of you for the ballot: PNG, JPEG, WebP or GIF, up to 2 MB." error={errors.photo} file={photo} onFile={setPhoto} inputRef={fileInput} />
      <ManifestoField value={manifesto} onChange={setManifesto} error={errors.manifesto} required />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Proposer (matric number)" name="proposer" autoComplete="off" placeholder="Optional" hint="They confirm from their own sign-in." value={proposer} onChange={(e) => setProposer(e.target.value)} error={errors.proposer} />
        <TextField label="Seconder (matric number)" name="seconder" autoComplete="off" placeholder="Optional" hint="They confirm from their own sign-in." value={seconder} onChange={(e) => setSeconder(e.target.value)} error={errors.seconder} />
      </div>
      <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={apply.isPending || !online}>
        {apply.isPending ? "Submitting..." : "Submit Application"}
      </Button>
    </form>
  );
}

const LIVE = new Set<Nomination["state"]>(["awaiting", "submitted", "approved"]);

function MyApplications({ list }: { list: Nomination[] }) {
  const online = useOnline();
  const client = useQueryClient();
  const [withdrawing, setWithdrawing] = useState<Nomination | null>(null);
  const withdraw = useMutation({
    mutationFn: (n: Nomination) => nominationsApi.withdraw(n._id),
    onSuccess: () => {
      setWithdrawing(null);
      notifySuccess(m.withdrawSuccess);
      void invalidateNominations(client);
    },
    onError: (e) => notifyError(e, m.withdrawFailed),
  });
  return (
    <Card>
      <CardHeader title="Your Applications" />
      {list.length === 0 ? (
        <StateMessage>You have not applied to stand.</StateMessage>
      ) : (
        <ul className="divide-y divide-slate-100">
          {list.map((n) => (
            <li key={n._id} className="flex flex-wrap items-start justify-between gap-3 px-6 py-4">
              <div className="min-w-0 space-y-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-slate-900">{n.positionTitle}</span>
                  <NominationStateBadge nomination={n} />
                </p>
                <p className="text-sm text-slate-600">Submitted {formatDateTime(n.submittedAt)}</p>
                {[n.proposer && ["Proposer", n.proposer] as const, n.seconder && ["Seconder", n.seconder] as const].map(
                  (s) =>
                    s && (
                      <p key={s[0]} className="text-sm text-slate-600">
                        {s[0]}: {s[1].name} ({s[1].matricNumber}), {s[1].answer}
                      </p>
                    ),
                )}
                {n.state === "rejected" && n.reason && <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900">Reason: {n.reason}</p>}
              </div>
              {LIVE.has(n.state) && (
                <Button variant="danger-ghost" size="sm" aria-label={`Withdraw application for ${n.positionTitle}`} disabled={withdraw.isPending || !online} onClick={() => setWithdrawing(n)}>
                  Withdraw
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDeleteDialog
        open={withdrawing !== null}
        title="Withdraw Application"
        confirmLabel="Withdraw"
        pendingLabel="Withdrawing..."
        pending={withdraw.isPending || !online}
        onOpenChange={(open) => !open && setWithdrawing(null)}
        onConfirm={() => withdrawing && withdraw.mutate(withdrawing)}
      >
        <p>Are you sure you want to withdraw your application for &quot;{withdrawing?.positionTitle}&quot;?</p>
        {withdrawing?.state === "approved" && <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">You will be taken off the ballot.</p>}
        <p className="font-medium">This action cannot be undone.</p>
      </ConfirmDeleteDialog>
    </Card>
  );
}
