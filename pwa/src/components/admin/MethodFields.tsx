import { ballotMethods, type BallotMethod } from "@evoting/shared";
import type { FieldErrors } from "../../lib/form-errors";
import { methodNames, passThresholds, thresholdText, type MethodValues } from "../../lib/ballot-method";
import { SelectField, TextField } from "../ui/Field";

export type MethodField = "method" | "seats" | "question" | "passThreshold" | "liveCount";

const methodHints: Record<BallotMethod, string> = {
  single: "Each voter chooses one candidate.",
  multi: "Each voter chooses up to the number of seats; the candidates with most votes fill them.",
  ranked: "Each voter ranks the candidates: instant-runoff for one seat, Scottish STV for several.",
  referendum: "A question with Yes and No (and Abstain if allowed); it has no candidates.",
};

/** The seat count as the admin reviews it before saving: what the declared result will fill. */
function seatsReview(seats: string): string {
  const n = Number(seats);
  if (seats.trim() === "" || !Number.isInteger(n) || n < 1) return "Enter how many seats this position fills.";
  return `This position will elect ${n} candidate${n === 1 ? "" : "s"} (${n} seat${n === 1 ? "" : "s"}).`;
}

interface MethodFieldsProps {
  values: MethodValues;
  onChange: (values: MethodValues) => void;
  errors: FieldErrors<MethodField>;
}

/**
 * Create/Edit Position's 'Voting Method' and what the chosen method needs: seats (several
 * seats, ranked), the question and pass threshold (referendum), the live count (ranked).
 * Left at 'Single choice' the form is the baseline's (docs/product.md).
 */
export function MethodFields({ values, onChange, errors }: MethodFieldsProps) {
  const set = (patch: Partial<MethodValues>) => onChange({ ...values, ...patch });
  const { method } = values;
  const thresholds = passThresholds.some((t) => Math.abs(t.value - values.passThreshold) < 1e-9)
    ? passThresholds
    : [...passThresholds, { value: values.passThreshold, label: thresholdText(values.passThreshold) }];
  return (
    <>
      <SelectField
        label="Voting Method"
        name="method"
        error={errors.method}
        hint={methodHints[method]}
        value={method}
        onChange={(e) => set({ method: e.target.value as BallotMethod })}
      >
        {ballotMethods.map((m) => (
          <option key={m} value={m}>
            {methodNames[m]}
            {m === "single" ? " (default)" : ""}
          </option>
        ))}
      </SelectField>
      {(method === "multi" || method === "ranked") && (
        <TextField
          label="Seats"
          name="seats"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={values.seats}
          onChange={(e) => set({ seats: e.target.value })}
          error={errors.seats}
          hint="How many candidates this position elects."
        />
      )}
      {(method === "multi" || method === "ranked") && (
        <p role="status" className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-900">
          {seatsReview(values.seats)}
        </p>
      )}
      {method === "ranked" && (
        <label className="flex items-start gap-3 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            name="liveCount"
            className="mt-0.5 size-4 accent-indigo-600"
            checked={values.liveCount}
            onChange={(e) => set({ liveCount: e.target.checked })}
          />
          <span>
            Show the full count live
            <span className="block font-normal text-slate-600">Otherwise results show first preferences until voting closes.</span>
          </span>
        </label>
      )}
      {method === "referendum" && (
        <>
          <TextField
            label="Question"
            name="question"
            autoComplete="off"
            placeholder="e.g. Should the constitution be amended as proposed?"
            value={values.question}
            onChange={(e) => set({ question: e.target.value })}
            error={errors.question}
          />
          <SelectField
            label="Passes With"
            name="passThreshold"
            error={errors.passThreshold}
            hint="Abstentions are not part of the share."
            value={String(values.passThreshold)}
            onChange={(e) => set({ passThreshold: Number(e.target.value) })}
          >
            {thresholds.map((t) => (
              <option key={t.value} value={String(t.value)}>
                {t.label}
              </option>
            ))}
          </SelectField>
        </>
      )}
    </>
  );
}
