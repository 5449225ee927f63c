import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { createUserSchema, messages } from "@evoting/shared";
import { api } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { fieldErrors, type FieldErrors } from "../../lib/form-errors";
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
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});

  const create = useMutation({
    mutationFn: api.createUser,
    onSuccess: () => {
      setValues(empty);
      notifySuccess(messages.createUserSuccess);
    },
    onError: (e) => notifyError(e, messages.createUserFailed),
  });

  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [field]: e.target.value }));

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
          <TextField label="Name" name="name" autoComplete="off" value={values.name} onChange={set("name")} error={errors.name} />
          <TextField
            label="Matriculation Number"
            name="matricNumber"
            autoComplete="off"
            placeholder="2020/5570123"
            value={values.matricNumber}
            onChange={set("matricNumber")}
            error={errors.matricNumber}
          />
          <TextField
            label="Date of Birth"
            name="dateOfBirth"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            placeholder="YYYYMMDD"
            value={values.dateOfBirth}
            onChange={set("dateOfBirth")}
            error={errors.dateOfBirth}
          />
          <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={create.isPending || !online}>
            {create.isPending ? "Creating User..." : "Create User"}
          </Button>
        </form>
      </Card>
    </div>
  );
}
