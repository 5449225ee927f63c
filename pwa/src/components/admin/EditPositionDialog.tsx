import { useEffect, useState } from "react";
import { messages, splitGroups, updatePositionSchema, windowEditProblem, type Position } from "@evoting/shared";
import { electionApi } from "../../api/election";
import { fieldErrors, type FieldErrors } from "../../lib/form-errors";
import { isoToLocalInput, localInputToIso, localTimeZone } from "../../lib/format";
import { useFormFields } from "../../hooks/use-form-fields";
import { TextField } from "../ui/Field";
import { FormDialog, useEditMutation } from "./FormDialog";

type Field = "title" | "startTime" | "endTime" | "eligibleGroups";

const valuesOf = (p: Position | null) => ({
  title: p?.title ?? "",
  startTime: p ? isoToLocalInput(p.startTime) : "",
  endTime: p ? isoToLocalInput(p.endTime) : "",
  eligibleGroups: (p?.eligibleGroups ?? []).join("; "),
});

/**
 * Manage Positions' 'Edit': title, window, eligible groups and abstain. The window
 * rules (shared/election-rules.ts) are checked here first and again by the API.
 */
export function EditPositionDialog({ position, onClose }: { position: Position | null; onClose: () => void }) {
  const { values, setValues, setErrors, field } = useFormFields(valuesOf(position));
  const [allowAbstain, setAllowAbstain] = useState(false);
  useEffect(() => {
    setValues(valuesOf(position));
    setAllowAbstain(Boolean(position?.allowAbstain));
    setErrors({});
  }, [position, setValues, setErrors]);

  const save = useEditMutation(
    (body: Parameters<typeof electionApi.updatePosition>[1]) => electionApi.updatePosition(position!._id, body),
    messages.updatePositionSuccess,
    messages.updatePositionFailed,
    onClose,
  );

  const submit = () => {
    if (!position) return;
    const parsed = updatePositionSchema.safeParse({
      title: values.title,
      startTime: localInputToIso(values.startTime),
      endTime: localInputToIso(values.endTime),
      eligibleGroups: splitGroups(values.eligibleGroups),
      allowAbstain,
    });
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error));
      return;
    }
    const { startTime, endTime } = parsed.data;
    // The form shows minutes: an untouched field keeps the stored instant to the millisecond.
    const unchanged = (typed: string, stored: string) => isoToLocalInput(stored) === typed;
    const body = {
      ...parsed.data,
      startTime: unchanged(values.startTime, position.startTime) ? position.startTime : startTime,
      endTime: unchanged(values.endTime, position.endTime) ? position.endTime : endTime,
    };
    const problem = windowEditProblem(
      { startTime: Date.parse(position.startTime), endTime: Date.parse(position.endTime) },
      { startTime: Date.parse(body.startTime!), endTime: Date.parse(body.endTime!) },
      Date.now(),
    );
    if (problem) {
      const errors: FieldErrors<Field> = problem === messages.startLocked ? { startTime: problem } : { endTime: problem };
      setErrors(errors);
      return;
    }
    setErrors({});
    save.mutate(body);
  };

  const zoneHint = `Your local time (${localTimeZone()})`;
  return (
    <FormDialog
      open={position !== null}
      title="Edit Position"
      submitLabel="Save Changes"
      pendingLabel="Saving..."
      pending={save.isPending}
      onSubmit={submit}
      onOpenChange={(open) => !open && onClose()}
    >
      <TextField label="Position Title" autoComplete="off" {...field("title")} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Start Time" type="datetime-local" hint={zoneHint} {...field("startTime")} />
        <TextField label="End Time" type="datetime-local" hint={zoneHint} {...field("endTime")} />
      </div>
      <TextField
        label="Eligible Groups"
        autoComplete="off"
        placeholder="e.g. 300L; Software"
        hint="Separate groups with ';'. Leave empty to let every voter vote."
        {...field("eligibleGroups")}
      />
      <label className="flex items-center gap-3 text-sm font-medium text-slate-800">
        <input type="checkbox" className="size-4 accent-indigo-600" checked={allowAbstain} onChange={(e) => setAllowAbstain(e.target.checked)} />
        Allow Abstain
      </label>
    </FormDialog>
  );
}
