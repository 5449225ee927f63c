import type { FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { createUserSchema, messages } from "@evoting/shared";
import { api } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { fieldErrors } from "../../lib/form-errors";
import { useFormFields } from "../../lib/use-form-fields";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { Button } from "../../components/ui/Button";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { useOnline } from "../../lib/use-online";
import { TextField } from "../../components/ui/Field";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";

type Field = "name" | "matricNumber" | "dateOfBirth";
const empty = { name: "", matricNumber: "", dateOfBirth: "" };

export function CreateUserPage() {
  const online = useOnline();
  const { values, setErrors, field, reset } = useFormFields(empty);

  const create = useMutation({
    mutationFn: api.createUser,
    onSuccess: () => {
      reset();
      notifySuccess(messages.createUserSuccess);
    },
    onError: (e) => notifyError(e, messages.createUserFailed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createUserSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    // The date of birth travels as the integer parsed from its 8 digits (spec section 3).
    create.mutate({ ...parsed.data, dateOfBirth: Number(parsed.data.dateOfBirth) });
  };

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Create Users" description="Register a voter. They sign in with their matriculation number and date of birth." actions={<BackToAdminButton />} />
      <Card>
        <form noValidate onSubmit={submit} className="space-y-5 p-6">
          <NeedsNetwork online={online} />
          <TextField label="Name" autoComplete="off" {...field("name")} />
          <TextField label="Matriculation Number" autoComplete="off" placeholder="2020/5570123" {...field("matricNumber")} />
          <TextField
            label="Date of Birth"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            placeholder="YYYYMMDD"
            {...field("dateOfBirth")}
          />
          <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={create.isPending || !online}>
            {create.isPending ? "Creating User..." : "Create User"}
          </Button>
        </form>
      </Card>
    </div>
  );
}
