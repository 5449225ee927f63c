/** A form of text inputs: their values, the error under each, and the props that tie a field to both. */
import { useState, type ChangeEvent } from "react";
import type { FieldErrors } from "../lib/form-errors";

export function useFormFields<V extends Record<string, string>>(empty: V) {
  type Name = keyof V & string;
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors<Name>>({});

  /** Spread onto a `TextField`: its name, value, change handler and error. */
  const field = (name: Name) => ({
    name,
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      setValues((v) => ({ ...v, [name]: e.target.value }));
      // A field's error was about its old value: editing it clears that error (the next submit checks again).
      setErrors((errs) => (errs[name] === undefined ? errs : { ...errs, [name]: undefined }));
    },
    error: errors[name],
  });

  return { values, setValues, errors, setErrors, field, reset: () => setValues(empty) };
}
