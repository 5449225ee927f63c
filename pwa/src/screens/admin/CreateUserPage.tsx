import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createAccountSchema, isStaff, messages, type Role } from "@evoting/shared";
import { api } from "../../api/client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { fieldErrors } from "../../lib/form-errors";
import { useFormFields } from "../../hooks/use-form-fields";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { Button } from "../../components/ui/Button";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { useOnline } from "../../hooks/use-online";
import { DateOfBirthField } from "../../components/ui/DateOfBirthField";
import { FieldShell, TextField, inputClass } from "../../components/ui/Field";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { StaffAccountsCard } from "../../components/admin/StaffAccountsCard";

type Field = "name" | "matricNumber" | "dateOfBirth" | "groups" | "role" | "password";
const empty = { name: "", matricNumber: "", dateOfBirth: "", groups: "", password: "" };
const ROLE_LABELS: Record<Role, string> = { voter: "Voter", admin: "Admin", observer: "Observer", officer: "Officer" };
const ROLE_ORDER: Role[] = ["voter", "admin", "observer", "officer"];

export function CreateUserPage() {
  const online = useOnline();
  const client = useQueryClient();
  const { values, setErrors, field, reset } = useFormFields(empty);
  // Staff (admin, observer, officer) sign in by password only: they get a password, not a date of birth.
  const [role, setRole] = useState<Role>("voter");
  const staff = isStaff(role);

  const create = useMutation({
    mutationFn: api.createUser,
    onSuccess: () => {
      reset();
      setRole("voter");
      notifySuccess(messages.createUserSuccess);
      void client.invalidateQueries({ queryKey: ["admin", "staff"] });
    },
    onError: (e) => notifyError(e, messages.createUserFailed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createAccountSchema.safeParse({ ...values, role });
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    const { dateOfBirth, password, ...rest } = parsed.data;
    // The date of birth travels as the integer parsed from its 8 digits (docs/product.md, The calls).
    create.mutate({ ...rest, ...(dateOfBirth ? { dateOfBirth: Number(dateOfBirth) } : {}), ...(password ? { password } : {}) });
  };

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Create Users" description="Register a voter. They sign in with their matriculation number and date of birth." actions={<BackToAdminButton />} />
      <Card>
        <form noValidate onSubmit={submit} className="space-y-5 p-6">
          <NeedsNetwork online={online} />
          <TextField label="Name" autoComplete="off" {...field("name")} />
          <TextField label="Matriculation Number" autoComplete="off" placeholder="2020/5570123" {...field("matricNumber")} />
          {!staff && <DateOfBirthField {...field("dateOfBirth")} />}
          <TextField label="Groups" autoComplete="off" placeholder="300L;Software" hint="Optional. Separate groups with ; (used by position eligibility)." {...field("groups")} />
          <FieldShell label="Role" hint="Observers see the admin screens read-only; officers staff a polling station.">
            {({ id, describedBy, invalid }) => (
              <select id={id} name="role" aria-describedby={describedBy} aria-invalid={invalid || undefined} className={inputClass} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {ROLE_ORDER.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </option>
                ))}
              </select>
            )}
          </FieldShell>
          {staff && <TextField label="Password" type="password" autoComplete="new-password" hint="At least 6 characters. Staff sign in by password only." {...field("password")} />}
          <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={create.isPending || !online}>
            {create.isPending ? "Creating User..." : "Create User"}
          </Button>
        </form>
      </Card>
      <div className="mt-6">
        <StaffAccountsCard />
      </div>
    </div>
  );
}
