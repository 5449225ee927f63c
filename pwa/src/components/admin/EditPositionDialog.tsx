import { useEffect, useState } from "react";
import { DEFAULT_PASS_THRESHOLD, messages, splitGroups, updatePositionSchema, windowEditProblem, type Position } from "@evoting/shared";
import { electionApi } from "../../api/election";
import { fieldErrors, type FieldErrors } from "../../lib/form-errors";
import { isoToLocalInput, localInputToIso, localTimeZone } from "../../lib/format";
import { useFormFields } from "../../hooks/use-form-fields";
import { TextField } from "../ui/Field";
import { FormDialog, useEditMutation } from "./FormDialog";
import { MethodFields, type MethodField } from "./MethodFields";
import { methodProblem } from "./method-problem";
import { methodBody, methodValuesOf } from "../../lib/ballot-method";
import { VerifiableField } from "./VerifiableField";

type Field = "title" | "startTime" | "endTime" | "eligibleGroups" | MethodField;

const valuesOf = (p: Position | null) => ({
  title: p?.title ?? "",
  startTime: p ? isoToLocalInput(p.startTime) : "",
  endTime: p ? isoToLocalInput(p.endTime) : "",
  eligibleGroups: (p?.eligibleGroups ?? []).join("; "),
});

/**
 * Manage Positions' 'Edit': title, window, eligible groups, abstain and the voting method. The
 * window rules (shared/election-rules.ts) are checked here first and again by the API; the method
 * freezes at the first vote, which only the API knows (its 409 message is shown as the toast).
 */
export function EditPositionDialog({ position, onClose }: { position: Position | null; onClose: () => void }) {
  const { values, setValues, setErrors, field } = useFormFields(valuesOf(position));
  const [allowAbstain, setAllowAbstain] = useState(false);
  const [verifiable, setVerifiable] = useState(false);
  const [methodErrors, setMethodErrors] = useState<FieldErrors<MethodField>>({});
  const [method, setMethod] = useState(methodValuesOf(position));
  useEffect(() => {
    setValues(valuesOf(position));
    setAllowAbstain(Boolean(position?.allowAbstain));
    setVerifiable(Boolean(position?.belenios));
    setMethod(methodValuesOf(position));
    setMethodErrors({});
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
    const wantVerifiable = verifiable && method.method !== "ranked";
    const parsed = updatePositionSchema.safeParse({
      title: values.title,
      startTime: localInputToIso(values.startTime),
      endTime: localInputToIso(values.endTime),
      eligibleGroups: splitGroups(values.eligibleGroups),
      allowAbstain,
      ...methodBody(method, position.method),
      // Sent only when changed: a locked verifiable position refuses any word about it.
      ...(wantVerifiable !== Boolean(position.belenios) ? { verifiable: wantVerifiable } : {}),
    });
    if (!parsed.success) {
      const errors = fieldErrors<Field>(parsed.error);
      setErrors(errors);
      setMethodErrors(errors);
      return;
    }
    const current = {
      method: position.method ?? "single",
      seats: position.seats ?? 1,
      question: position.question ?? null,
      passThreshold: position.passThreshold ?? DEFAULT_PASS_THRESHOLD,
    };
    const wrong = methodProblem(parsed.data, current);
    if (wrong) {
      setErrors({});
      setMethodErrors(wrong);
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
    setMethodErrors({});
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
      {/* One above the other: side by side, the dialog's half width cut a time to '09:37 PI'. */}
      <TextField label="Start Time" type="datetime-local" hint={zoneHint} {...field("startTime")} />
      <TextField label="End Time" type="datetime-local" hint={zoneHint} {...field("endTime")} />
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
      <MethodFields values={method} onChange={setMethod} errors={methodErrors} />
      <VerifiableField checked={verifiable} onChange={setVerifiable} method={method.method} position={position} />
    </FormDialog>
  );
}
