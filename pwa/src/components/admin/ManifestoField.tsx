import { MAX_MANIFESTO_LENGTH } from "@evoting/shared";
import { FieldShell, inputClass } from "../ui/Field";

/** A manifesto: plain text, with the characters used so far (optional for a candidate, required in an application). */
export function ManifestoField({ value, onChange, error, required = false }: { value: string; onChange: (value: string) => void; error?: string; required?: boolean }) {
  return (
    <FieldShell label="Manifesto" error={error} hint={`${required ? "Plain" : "Optional plain"} text, up to ${MAX_MANIFESTO_LENGTH.toLocaleString()} characters (${value.length} used).`}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          name="manifesto"
          rows={6}
          maxLength={MAX_MANIFESTO_LENGTH}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className={inputClass}
        />
      )}
    </FieldShell>
  );
}
