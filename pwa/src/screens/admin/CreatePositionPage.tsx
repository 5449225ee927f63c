import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createPositionSchema, messages } from "@evoting/shared";
import { api } from "../../lib/api-client";
import { invalidateElectionData } from "../../lib/queries";
import { notifyError, notifySuccess } from "../../lib/notify";
import { fieldErrors, type FieldErrors } from "../../lib/form-errors";
import { localInputToIso, localTimeZone } from "../../lib/format";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { Button } from "../../components/ui/Button";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { useOnline } from "../../lib/use-online";
import { TextField } from "../../components/ui/Field";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";

type Field = "title" | "startTime" | "endTime";
const empty = { title: "", startTime: "", endTime: "" };

export function CreatePositionPage() {
  const online = useOnline();
  const client = useQueryClient();
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});

  const create = useMutation({
    mutationFn: api.createPosition,
    onSuccess: () => {
      setValues(empty);
      notifySuccess(messages.createPositionSuccess);
      void invalidateElectionData(client);
    },
    onError: (e) => notifyError(e, messages.createPositionFailed),
  });

  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // datetime-local holds the admin's wall-clock time; the API takes ISO UTC instants.
    const parsed = createPositionSchema.safeParse({
      title: values.title,
      startTime: localInputToIso(values.startTime),
      endTime: localInputToIso(values.endTime),
    });
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    create.mutate(parsed.data);
  };

  const zoneHint = `Your local time (${localTimeZone()})`;

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Create Positions" description="Add a position and the window in which it takes votes." actions={<BackToAdminButton />} />
      <Card>
        <form noValidate onSubmit={submit} className="space-y-5 p-6">
          <NeedsNetwork online={online} />
          <TextField label="Position Title" name="title" autoComplete="off" placeholder="e.g. President" value={values.title} onChange={set("title")} error={errors.title} />
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField label="Start Time" name="startTime" type="datetime-local" value={values.startTime} onChange={set("startTime")} error={errors.startTime} hint={zoneHint} />
            <TextField label="End Time" name="endTime" type="datetime-local" value={values.endTime} onChange={set("endTime")} error={errors.endTime} hint={zoneHint} />
          </div>
          <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={create.isPending || !online}>
            {create.isPending ? "Creating..." : "Create Position"}
          </Button>
        </form>
      </Card>
    </div>
  );
}
