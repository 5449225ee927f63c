import { MAX_MANIFESTO_LENGTH } from "@evoting/shared";
import { TextAreaField } from "../ui/Field";

/** A manifesto: plain text, with the characters used so far (optional for a candidate, required in an application). */
export function ManifestoField({ value, onChange, error, required = false }: { value: string; onChange: (value: string) => void; error?: string; required?: boolean }) {
  return (
    <TextAreaField
      label="Manifesto"
      name="manifesto"
      rows={6}
      maxLength={MAX_MANIFESTO_LENGTH}
      error={error}
      hint={`${required ? "Plain" : "Optional plain"} text, up to ${MAX_MANIFESTO_LENGTH.toLocaleString()} characters (${value.length} used).`}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
