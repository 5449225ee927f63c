import type { FormEvent } from "react";
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { GROUP_SEPARATOR, messages, updateVoterSchema, type VoterListItem } from "@evoting/shared";
import { fieldErrors } from "../../../lib/form-errors";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { queryKeys } from "../../../lib/query-keys";
import { rollApi } from "../../../lib/roll-api";
import { useFormFields } from "../../../lib/use-form-fields";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/Field";

type Field = "name" | "dateOfBirth" | "email" | "groups";

interface EditVoterDialogProps {
  voter: VoterListItem | null;
  onClose: () => void;
}

/** Edit a voter's name, date of birth, email and groups with the same rules as Create Users. */
export function EditVoterDialog({ voter, onClose }: EditVoterDialogProps) {
  return (
    <Dialog.Root open={voter !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100vh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-slate-900">Edit Voter</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            {voter?.matricNumber}: the matriculation number cannot change. Votes already cast stay as they are.
          </Dialog.Description>
          {/* Keyed by voter: opening another voter starts from their values. */}
          {voter && <EditVoterForm key={voter._id} voter={voter} onClose={onClose} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function EditVoterForm({ voter, onClose }: { voter: VoterListItem; onClose: () => void }) {
  const client = useQueryClient();
  const { values, setErrors, field } = useFormFields({
    name: voter.name,
    dateOfBirth: "",
    email: voter.email ?? "",
    groups: voter.groups.join(GROUP_SEPARATOR),
  });

  const save = useMutation({
    mutationFn: (body: Parameters<typeof rollApi.updateVoter>[1]) => rollApi.updateVoter(voter._id, body),
    onSuccess: () => {
      notifySuccess(messages.updateVoterSuccess);
      void client.invalidateQueries({ queryKey: queryKeys.voters });
      onClose();
    },
    onError: (e) => notifyError(e, messages.updateVoterFailed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The date of birth is stored only as a keyed hash: it cannot be shown, only replaced.
    const body = { name: values.name, email: values.email, groups: values.groups, ...(values.dateOfBirth ? { dateOfBirth: values.dateOfBirth } : {}) };
    const parsed = updateVoterSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(body);
  };

  return (
    <form noValidate onSubmit={submit} className="mt-5 space-y-4">
      <TextField label="Name" autoComplete="off" {...field("name")} />
      <TextField
        label="Date of Birth"
        inputMode="numeric"
        autoComplete="off"
        maxLength={8}
        placeholder="YYYYMMDD"
        hint="Leave empty to keep the current date of birth."
        {...field("dateOfBirth")}
      />
      <TextField label="Email" type="email" autoComplete="off" placeholder="name@uniport.edu.ng" hint="Optional." {...field("email")} />
      <TextField label="Groups" autoComplete="off" placeholder="300L;Software" hint="Optional. Separate groups with ;" {...field("groups")} />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Dialog.Close asChild>
          <Button variant="secondary" disabled={save.isPending}>
            Cancel
          </Button>
        </Dialog.Close>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save Changes"}
        </Button>
      </div>
    </form>
  );
}
