import { useState, type FormEvent, type ReactNode } from "react";
import { TextField } from "../../components/ui/Field";
import { Button } from "../../components/ui/Button";

interface OfficerPasswordFormProps {
  /** The form's accessible name. */
  title: string;
  submitLabel: string;
  busyLabel: string;
  /** Resolves when the password was right; rejects with the message to show otherwise. */
  onSubmit: (password: string) => Promise<void>;
  children?: ReactNode;
}

/**
 * The officer's password, asked again: to open a station, to unlock it after a reload, and to
 * take the device back from a voter. The field is emptied after every try.
 */
export function OfficerPasswordForm({ title, submitLabel, busyLabel, onSubmit, children }: OfficerPasswordFormProps) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError("Password is required");
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(password);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setPassword("");
      setBusy(false);
    }
  };

  return (
    <form aria-label={title} onSubmit={(e) => void submit(e)} className="space-y-4 px-5 py-4" noValidate>
      {children}
      <TextField
        label="Officer password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error}
        autoFocus
      />
      <Button type="submit" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
