import { useMutation, useQueryClient } from "@tanstack/react-query";
import { GROUP_SEPARATOR, messages, updateVoterSchema, type VoterListItem } from "@evoting/shared";
import { fieldErrors } from "../../../lib/form-errors";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { queryKeys } from "../../../data/query-keys";
import { rollApi } from "../../../api/roll";
import { useFormFields } from "../../../hooks/use-form-fields";
import { FormDialog } from "../../../components/admin/FormDialog";
import { DateOfBirthField } from "../../../components/ui/DateOfBirthField";
import { TextField } from "../../../components/ui/Field";

type Field = "name" | "dateOfBirth" | "email" | "groups";

interface EditVoterDialogProps {
  voter: VoterListItem | null;
  onClose: () => void;
}

/** Edit a voter's name, date of birth, email and groups with the same rules as Create Users. */
export function EditVoterDialog({ voter, onClose }: EditVoterDialogProps) {
  // Keyed by voter: opening another voter starts from their values.
  return voter ? <EditVoterForm key={voter._id} voter={voter} onClose={onClose} /> : null;
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

  const submit = () => {
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
    <FormDialog
      open
      title="Edit Voter"
      submitLabel="Save Changes"
      pendingLabel="Saving..."
      pending={save.isPending}
      onSubmit={submit}
      onOpenChange={(open) => !open && onClose()}
    >
      <p className="text-sm text-slate-600">
        {voter.matricNumber}: the matriculation number cannot change. Votes already cast stay as they are.
      </p>
      <TextField label="Name" autoComplete="off" {...field("name")} />
      <DateOfBirthField hint="Leave empty to keep the current date of birth." {...field("dateOfBirth")} />
      <TextField label="Email" type="email" autoComplete="off" placeholder="name@uniport.edu.ng" hint="Optional." {...field("email")} />
      <TextField label="Groups" autoComplete="off" placeholder="300L;Software" hint="Optional. Separate groups with ;" {...field("groups")} />
    </FormDialog>
  );
}
