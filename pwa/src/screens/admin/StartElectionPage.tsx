import { useState, type FormEvent } from "react";
import { useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { messages, startElectionSchema, type StartElectionInput } from "@evoting/shared";
import { electionsApi } from "../../api/elections";
import { currentElectionQuery, forgetLastElection } from "../../data/elections";
import { adminPositionsQuery } from "../../data/queries";
import { notifyError, notifySuccess } from "../../lib/notify";
import { fieldErrors } from "../../lib/form-errors";
import { useFormFields } from "../../hooks/use-form-fields";
import { localInputToIso } from "../../lib/format";
import { useOnline } from "../../hooks/use-online";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { Button } from "../../components/ui/Button";
import { StateMessage } from "../../components/ui/Spinner";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { ElectionIdentityFields } from "../../components/admin/ElectionIdentityFields";
import { ConfirmDeleteDialog } from "../../components/admin/ConfirmDeleteDialog";
import { chosenPositionIds, PositionsToCopy } from "../../components/admin/PositionsToCopy";

type Field = "title" | "subtitle" | "startTime" | "endTime";

/**
 * /admin/elections/new: the next election, or a by-election (copy only the positions being
 * filled). Allowed once the current election is declared, or before any vote.
 */
export function StartElectionPage() {
  const status = useQuery(currentElectionQuery());
  const s = status.data;
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Start a new election" description="A fresh election with its own window and ballots. The last one stays in Past Elections." actions={<BackToAdminButton />} />
      <Card>
        {status.isPending ? (
          <StateMessage busy>Loading the election...</StateMessage>
        ) : status.isError || !s ? (
          <StateMessage>Failed to load the election</StateMessage>
        ) : s.election.state !== "declared" && s.hasVotes ? (
          <StateMessage>{messages.newElectionHasVotes}</StateMessage>
        ) : (
          <StartForm previousTitle={s.election.title} />
        )}
      </Card>
    </div>
  );
}

function StartForm({ previousTitle }: { previousTitle: string }) {
  const online = useOnline();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { values, setErrors, field } = useFormFields({ title: "", subtitle: "", startTime: "", endTime: "" });
  const [copyPositions, setCopy] = useState(true);
  const positions = useQuery({ ...adminPositionsQuery(), enabled: copyPositions });
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(() => new Set());
  const [positionsError, setPositionsError] = useState<string>();
  // The only rule on the choice is "at least one": any change answers it or is checked again on submit.
  const chooseAgain = (next: ReadonlySet<string>) => {
    setUnticked(next);
    setPositionsError(undefined);
  };
  const [keepRoll, setKeepRoll] = useState(true);
  const [confirming, setConfirming] = useState<StartElectionInput | null>(null);

  const start = useMutation({
    mutationFn: electionsApi.start,
    onSuccess: (answer) => {
      notifySuccess(answer.message);
      void forgetLastElection(client);
      void navigate({ to: keepRoll ? "/admin" : "/admin/voters/import" });
    },
    onError: (e) => notifyError(e, messages.startElectionFailed),
    onSettled: () => setConfirming(null),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = startElectionSchema.safeParse({
      ...values,
      startTime: localInputToIso(values.startTime),
      endTime: localInputToIso(values.endTime),
      copyPositions,
      positionIds: copyPositions ? chosenPositionIds(positions.data, unticked) : undefined,
      keepRoll,
    });
    if (!parsed.success) {
      const problems = fieldErrors<Field | "positionIds">(parsed.error);
      setErrors(problems);
      setPositionsError(problems.positionIds);
      return;
    }
    setErrors({});
    setPositionsError(undefined);
    setConfirming(parsed.data);
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5 p-6">
      <NeedsNetwork online={online} />
      <ElectionIdentityFields field={field} />
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input type="checkbox" className="mt-1 size-4" checked={copyPositions} onChange={(e) => setCopy(e.target.checked)} />
        <span>
          <span className="font-medium">Copy the positions of {previousTitle}</span>
          <span className="block text-slate-600">Titles and ballot rules, with the new voting window; no candidates and no votes. For a by-election, tick only the positions being filled.</span>
        </span>
      </label>
      {copyPositions && (
        <PositionsToCopy positions={positions} unticked={unticked} onChange={chooseAgain} previousTitle={previousTitle} error={positionsError} />
      )}
      <fieldset className="space-y-2 text-sm text-slate-800">
        <legend className="font-medium">Voter roll</legend>
        <label className="flex items-start gap-3">
          <input type="radio" name="roll" className="mt-1 size-4" checked={keepRoll} onChange={() => setKeepRoll(true)} />
          <span>Keep the voter roll</span>
        </label>
        <label className="flex items-start gap-3">
          <input type="radio" name="roll" className="mt-1 size-4" checked={!keepRoll} onChange={() => setKeepRoll(false)} />
          <span>
            Replace it by an import
            <span className="block text-slate-600">Every voter is taken off the roll; import the new roll on Import Voters right after. Voters who voted before keep their past votes.</span>
          </span>
        </label>
      </fieldset>
      <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={start.isPending || !online}>
        Start Election
      </Button>
      <ConfirmDeleteDialog
        open={confirming !== null}
        title="Start a new election?"
        confirmLabel="Start Election"
        pendingLabel="Starting..."
        pending={start.isPending}
        tone="change"
        onOpenChange={(open) => !open && setConfirming(null)}
        onConfirm={() => confirming && start.mutate(confirming)}>
        <p>
          {previousTitle} stays in Past Elections with its ballots and receipts. The chat is cleared and polling stations are reset
          {keepRoll ? "." : "; every voter is taken off the roll until you import the new one."}
        </p>
        {confirming?.positionIds && (
          <p>
            Positions copied: {positions.data?.filter((p) => confirming.positionIds?.includes(p._id)).map((p) => p.title).join(", ")}.
          </p>
        )}
      </ConfirmDeleteDialog>
    </form>
  );
}
