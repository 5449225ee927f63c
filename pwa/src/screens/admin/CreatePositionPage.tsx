import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createPositionSchema, messages } from "@evoting/shared";
import { api } from "../../api/client";
import { invalidateElectionData } from "../../data/queries";
import { notifyError, notifySuccess } from "../../lib/notify";
import { fieldErrors, type FieldErrors } from "../../lib/form-errors";
import { useFormFields } from "../../hooks/use-form-fields";
import { localInputToIso, localTimeZone } from "../../lib/format";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { Button } from "../../components/ui/Button";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { useOnline } from "../../hooks/use-online";
import { TextField } from "../../components/ui/Field";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { MethodFields, type MethodField } from "../../components/admin/MethodFields";
import { defaultMethodValues, methodBody } from "../../lib/ballot-method";
import { methodProblem } from "../../components/admin/method-problem";
import { VerifiableField } from "../../components/admin/VerifiableField";

type Field = "title" | "startTime" | "endTime" | MethodField;
const empty = { title: "", startTime: "", endTime: "" };

export function CreatePositionPage() {
  const online = useOnline();
  const client = useQueryClient();
  const { values, setErrors, field, reset } = useFormFields(empty);
  const [methodErrors, setMethodErrors] = useState<FieldErrors<MethodField>>({});
  const [method, setMethod] = useState(defaultMethodValues);
  const [allowAbstain, setAllowAbstain] = useState(false);
  const [verifiable, setVerifiable] = useState(false);

  const create = useMutation({
    mutationFn: api.createPosition,
    onSuccess: () => {
      reset();
      setMethod(defaultMethodValues);
      setAllowAbstain(false);
      setVerifiable(false);
      notifySuccess(messages.createPositionSuccess);
      void invalidateElectionData(client);
    },
    onError: (e) => notifyError(e, messages.createPositionFailed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // datetime-local holds the admin's wall-clock time; the API takes ISO UTC instants.
    const parsed = createPositionSchema.safeParse({
      title: values.title,
      startTime: localInputToIso(values.startTime),
      endTime: localInputToIso(values.endTime),
      // Only when ticked: left alone, the request is the baseline's (docs/product.md).
      ...(allowAbstain ? { allowAbstain } : {}),
      ...methodBody(method),
      ...(verifiable && method.method !== "ranked" ? { verifiable: true } : {}),
    });
    if (!parsed.success) {
      const errors = fieldErrors<Field>(parsed.error);
      setErrors(errors);
      setMethodErrors(errors);
      return;
    }
    const problem = methodProblem(parsed.data);
    if (problem) {
      setErrors({});
      setMethodErrors(problem);
      return;
    }
    setErrors({});
    setMethodErrors({});
    create.mutate(parsed.data);
  };

  const zoneHint = `Your local time (${localTimeZone()})`;

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Create Positions" description="Add a position and the window in which it takes votes." actions={<BackToAdminButton />} />
      <Card>
        <form noValidate onSubmit={submit} className="space-y-5 p-6">
          <NeedsNetwork online={online} />
          <TextField label="Position Title" autoComplete="off" placeholder="e.g. President" {...field("title")} />
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField label="Start Time" type="datetime-local" hint={zoneHint} {...field("startTime")} />
            <TextField label="End Time" type="datetime-local" hint={zoneHint} {...field("endTime")} />
          </div>
          <label className="flex items-center gap-3 text-sm font-medium text-slate-800">
            <input type="checkbox" className="size-4 accent-indigo-600" checked={allowAbstain} onChange={(e) => setAllowAbstain(e.target.checked)} />
            Allow Abstain
          </label>
          <MethodFields values={method} onChange={setMethod} errors={methodErrors} />
          <VerifiableField checked={verifiable} onChange={setVerifiable} method={method.method} />
          <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={create.isPending || !online}>
            {create.isPending ? "Creating..." : "Create Position"}
          </Button>
        </form>
      </Card>
    </div>
  );
}
