import { MAX_MANIFESTO_LENGTH } from "@evoting/shared";
import { FieldShell, inputClass } from "../ui/Field";

/** A candidate's manifesto: optional plain text, with the characters used so far. */
export function ManifestoField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  return (
    <FieldShell label="Manifesto" error={error} hint={`Optional plain text, up to ${MAX_MANIFESTO_LENGTH.toLocaleString()} characters (${value.length} used).`}>
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
