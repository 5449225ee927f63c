import type { FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { dateOfBirthSchema, messages, passwordFormSchema, type UserProfile } from "@evoting/shared";
import { api } from "../../api/client";
import { queryKeys } from "../../data/queries";
import { session } from "../../auth/session";
import { notifyError, notifySuccess } from "../../lib/notify";
import { fieldErrors, type FieldErrors } from "../../lib/form-errors";
import { useFormFields } from "../../hooks/use-form-fields";
import { Button } from "../../components/ui/Button";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { useOnline } from "../../hooks/use-online";
import { Card, CardHeader } from "../../components/ui/Card";
import { TextField } from "../../components/ui/Field";

type Field = "currentPassword" | "newPassword" | "confirmPassword";
const empty = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const online = useOnline();
  const client = useQueryClient();
  const { values, setErrors, field, reset } = useFormFields(empty);

  const update = useMutation({
    mutationFn: api.updatePassword,
    onSuccess: () => {
      // From now on this account signs in with its password (docs/architecture.md, Contracts).
      session.updateUser({ hasPassword: true });
      client.setQueryData<UserProfile>(queryKeys.profile, (p) => (p ? { ...p, hasPassword: true } : p));
      reset();
      notifySuccess(messages.updatePasswordSuccess);
    },
    onError: (e) => notifyError(e, messages.updatePasswordFailed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = passwordFormSchema.safeParse(values);
    const next: FieldErrors<Field> = parsed.success ? {} : fieldErrors<Field>(parsed.error);
    // Without a password, the date of birth proves it is the owner setting the first one.
    let current = values.currentPassword;
    if (hasPassword && !current) next.currentPassword = messages.currentPasswordRequired;
    if (!hasPassword) {
      const dob = dateOfBirthSchema.safeParse(current);
      if (dob.success) current = dob.data;
      else next.currentPassword = current.trim() ? messages.dobFormat : messages.currentDobRequired;
    }
    setErrors(next);
    if (!parsed.success || Object.keys(next).length > 0) return;
    update.mutate({ currentPassword: current, newPassword: parsed.data.newPassword });
  };

  return (
    <Card>
      <CardHeader
        title="Password"
        description={hasPassword ? "Change the password you sign in with." : "Set a password to sign in with instead of your date of birth."}
      />
      <form noValidate onSubmit={submit} className="space-y-4 px-5 py-4">
        <NeedsNetwork online={online} />
        {hasPassword ? (
          <TextField label="Current Password" type="password" autoComplete="current-password" {...field("currentPassword")} />
        ) : (
          <TextField
            label="Date of Birth"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            placeholder="YYYYMMDD"
            {...field("currentPassword")}
          />
        )}
        <TextField label="New Password" type="password" autoComplete="new-password" {...field("newPassword")} />
        <TextField label="Confirm Password" type="password" autoComplete="new-password" {...field("confirmPassword")} />
        <Button type="submit" disabled={update.isPending || !online}>
          {update.isPending ? "Updating..." : "Update Password"}
        </Button>
      </form>
    </Card>
  );
}
