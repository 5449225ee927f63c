import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { cx } from "../../lib/cx";

export const inputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/30 disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-600";

interface ImageFileInputProps {
  ids: { id: string; describedBy: string | undefined; invalid: boolean };
  onFile: (file: File | null) => void;
  inputRef?: Ref<HTMLInputElement>;
}

/** A photo chooser inside a `FieldShell` (create and edit candidate). */
export function ImageFileInput({ ids, onFile, inputRef }: ImageFileInputProps) {
  return (
    <input
      ref={inputRef}
      id={ids.id}
      name="photo"
      type="file"
      accept="image/*"
      aria-describedby={ids.describedBy}
      aria-invalid={ids.invalid || undefined}
      onChange={(e) => onFile(e.target.files?.[0] ?? null)}
      className="block w-full text-sm text-slate-700 file:mr-4 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-indigo-800 hover:file:bg-indigo-100"
    />
  );
}

interface FieldShellProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** A visible label, the control, then its hint and error, wired with aria-describedby. */
export function FieldShell({ label, error, hint, children }: FieldShellProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

export function TextField({ label, error, hint, className, ...input }: TextFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={cx(inputClass, className)}
          {...input}
        />
      )}
    </FieldShell>
  );
}

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id"> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** Plain multi-line text (a manifesto, a reason), wired like `TextField`. */
export function TextAreaField({ label, error, hint, className, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <textarea id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} className={cx(inputClass, className)} {...textarea} />
      )}
    </FieldShell>
  );
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** A labelled select with its hint and error, wired like `TextField`. */
export function SelectField({ label, error, hint, className, children, ...select }: SelectFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} className={cx(inputClass, className)} {...select}>
          {children}
        </select>
      )}
    </FieldShell>
  );
}

/** A select's options: a placeholder with the value '' ('Select a position', 'All states'), then one per item. */
export function SelectOptions({ placeholder, options }: { placeholder: string; options: readonly { _id: string; title: string }[] }) {
  return (
    <>
      <option value="">{placeholder}</option>
      {options.map((o) => (
        <option key={o._id} value={o._id}>
          {o.title}
        </option>
      ))}
    </>
  );
}
