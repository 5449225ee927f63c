/**
 * Observers' and officers' accounts on the Create Users screen: each one's state, and
 * disabling one (its sessions end at once; it cannot sign in until enabled) or enabling it
 * again, after a confirm dialog. Admins only (the page is not an observer page).
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { messages, type StaffAccount } from "@evoting/shared";
import { request } from "../../api/client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { useOnline } from "../../hooks/use-online";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card, CardHeader } from "../ui/Card";
import { StateMessage } from "../ui/Spinner";
import { ConfirmDeleteDialog } from "./ConfirmDeleteDialog";

const staffKey = ["admin", "staff"] as const;
const staffApi = {
  list: () => request<StaffAccount[]>("/admin/staff"),
  set: (id: string, disabled: boolean) =>
    request<{ message: string }>(`/admin/staff/${encodeURIComponent(id)}/${disabled ? "disable" : "enable"}`, { method: "POST" }),
};
const ROLE_LABEL = { observer: "Observer", officer: "Officer" } as const;

export function StaffAccountsCard() {
  const online = useOnline();
  const client = useQueryClient();
  const staff = useQuery({ queryKey: staffKey, queryFn: staffApi.list });
  const [disabling, setDisabling] = useState<StaffAccount | null>(null);
  const change = useMutation({
    mutationFn: ({ account, disabled }: { account: StaffAccount; disabled: boolean }) => staffApi.set(account._id, disabled),
    onSuccess: (_, { disabled }) => {
      setDisabling(null);
      notifySuccess(disabled ? messages.disableAccountSuccess : messages.enableAccountSuccess);
      void client.invalidateQueries({ queryKey: staffKey });
    },
    onError: (e, { disabled }) => notifyError(e, disabled ? messages.disableAccountFailed : messages.enableAccountFailed),
  });

  return (
    <Card>
      <CardHeader title="Staff Accounts" description="Observers and officers. A disabled account is signed out everywhere and cannot sign in." />
      {staff.isPending ? (
        <StateMessage busy>Loading staff accounts...</StateMessage>
      ) : staff.isError ? (
        <StateMessage>{messages.loadStaffFailed}</StateMessage>
      ) : staff.data.length === 0 ? (
        <StateMessage>No observers or officers yet.</StateMessage>
      ) : (
        <ul className="divide-y divide-slate-100 px-5 text-sm">
          {staff.data.map((s) => (
            <li key={s._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <span>
                {s.name} <span className="text-slate-600">({s.matricNumber}, {ROLE_LABEL[s.role]})</span>
              </span>
              <span className="flex items-center gap-2">
                {s.disabled ? <Badge tone="red">Disabled</Badge> : <Badge tone="green">Active</Badge>}
                {s.disabled ? (
                  <Button variant="secondary" size="sm" aria-label={`Enable ${s.name}`} disabled={!online || change.isPending} onClick={() => change.mutate({ account: s, disabled: false })}>
                    Enable
                  </Button>
                ) : (
                  <Button variant="danger-ghost" size="sm" aria-label={`Disable ${s.name}`} disabled={!online} onClick={() => setDisabling(s)}>
                    Disable
                  </Button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDeleteDialog
        title="Disable Account"
        confirmLabel="Disable Account"
        pendingLabel="Disabling..."
        open={disabling !== null}
        pending={change.isPending}
        onOpenChange={(open) => !open && setDisabling(null)}
        onConfirm={() => disabling && change.mutate({ account: disabling, disabled: true })}
      >
        <p>
          Disable the {disabling ? ROLE_LABEL[disabling.role].toLowerCase() : ""} account of &quot;{disabling?.name}&quot; ({disabling?.matricNumber})?
        </p>
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">They are signed out on every device at once and cannot sign in until the account is enabled again.</p>
      </ConfirmDeleteDialog>
    </Card>
  );
}
