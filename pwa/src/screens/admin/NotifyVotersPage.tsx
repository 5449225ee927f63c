/**
 * Notify Voters: an invitation, a reminder or the results by email, optionally to some roll
 * groups. The count of recipients shows before anything is sent, and a confirm dialog names
 * it again; each send's progress (queued, sent, failed with the mail server's reply) follows.
 * With no mail server set, the messages written to outbox/ are listed. Observers read only.
 */
import { useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  canWriteAdmin,
  mailText,
  NOTIFICATION_KINDS,
  notificationKindHelp,
  notificationKindLabels,
  type NotificationKind,
  type NotificationSend,
  type NotificationsAnswer,
} from "@evoting/shared";
import { errorMessage } from "../../api/client";
import { mailApi } from "../../api/mail";
import { mailKeys, notificationsQuery, recipientsQuery } from "../../data/mail";
import { rollGroupsQuery } from "../../data/roll";
import { useSession } from "../../auth/use-session";
import { useOnline } from "../../hooks/use-online";
import { formatDateTime, formatInteger } from "../../lib/format";
import { notifyError, notifySuccess } from "../../lib/notify";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { ConfirmDeleteDialog } from "../../components/admin/ConfirmDeleteDialog";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Card, CardHeader } from "../../components/ui/Card";
import { PageHeader } from "../../components/ui/PageHeader";
import { StateMessage } from "../../components/ui/Spinner";

const SEND_FAILED = "Failed to send the notice";
const voters = (n: number) => `${formatInteger(n)} ${n === 1 ? "voter" : "voters"}`;

export function NotifyVotersPage() {
  const canWrite = canWriteAdmin(useSession()?.user.role);
  const list = useQuery(notificationsQuery());
  return (
    <div className="space-y-6">
      <PageHeader
        title="Notify Voters"
        description="Email voters an invitation, a reminder or the results. Messages are sent in the background and retried when the mail server does not answer."
        actions={<BackToAdminButton />}
      />
      {canWrite ? <SendCard /> : <p className="rounded-lg bg-slate-100 px-4 py-3 text-sm text-slate-700">You are observing: sending is for administrators.</p>}
      <SendsCard query={list} />
      {list.data && <DeliveryCard delivery={list.data.delivery} />}
    </div>
  );
}

function SendCard() {
  const online = useOnline();
  const client = useQueryClient();
  const [kind, setKind] = useState<NotificationKind>("invitation");
  const [groups, setGroups] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const rollGroups = useQuery(rollGroupsQuery());
  const count = useQuery({ ...recipientsQuery(kind, groups), placeholderData: keepPreviousData });
  const send = useMutation({
    mutationFn: () => mailApi.notify({ kind, ...(groups.length ? { groups } : {}) }),
    onSuccess: (queued) => {
      setConfirming(false);
      notifySuccess(mailText.notificationQueued(queued.recipients));
      void client.invalidateQueries({ queryKey: mailKeys.notifications });
    },
    onError: (e) => {
      setConfirming(false);
      notifyError(e, SEND_FAILED);
    },
  });
  const recipients = count.isError || count.isPlaceholderData ? null : (count.data?.recipients ?? null);
  const toggleGroup = (name: string, on: boolean) => setGroups((g) => (on ? [...g, name].sort() : g.filter((x) => x !== name)));

  return (
    <Card>
      <CardHeader title="Send a notice" description="Choose what to send and to whom; the number of recipients shows before anything is sent." />
      <div className="space-y-5 px-5 py-4">
        <fieldset>
          <legend className="text-sm font-medium text-slate-900">Message</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-3">
            {NOTIFICATION_KINDS.map((k) => (
              <label key={k} className={`flex cursor-pointer gap-3 rounded-xl border p-3 text-sm ${kind === k ? "border-indigo-500 bg-indigo-50" : "border-slate-200"}`}>
                <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => setKind(k)} className="mt-1" />
                <span>
                  <span className="font-semibold text-slate-900">{notificationKindLabels[k]}</span>
                  <span className="mt-0.5 block text-slate-600">{notificationKindHelp[k]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset>
          <legend className="text-sm font-medium text-slate-900">Groups</legend>
          <p className="text-sm text-slate-600">None chosen sends to every group.</p>
          {rollGroups.data && rollGroups.data.groups.length > 0 ? (
            <div className="mt-2 flex flex-wrap gap-2">
              {rollGroups.data.groups.map((g) => (
                <label key={g.name} className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-1.5 text-sm">
                  <input type="checkbox" checked={groups.includes(g.name)} onChange={(e) => toggleGroup(g.name, e.target.checked)} />
                  {g.name}
                </label>
              ))}
            </div>
          ) : (
            <p className="mt-1 text-sm text-slate-600">{rollGroups.isPending ? "Loading groups..." : "The roll has no groups."}</p>
          )}
        </fieldset>

        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
          <p role="status" className="text-sm text-slate-800" data-testid="notify-recipients">
            {count.isError ? (
              <span className="text-amber-900">{errorMessage(count.error, "Could not count the recipients")}</span>
            ) : recipients === null ? (
              "Counting recipients..."
            ) : (
              <>
                <strong>{voters(recipients)}</strong> will receive it.
              </>
            )}
          </p>
          <Button disabled={!online || recipients === null || recipients === 0 || send.isPending} onClick={() => setConfirming(true)}>
            Send
          </Button>
        </div>
      </div>
      <ConfirmDeleteDialog
        title="Send Notice"
        confirmLabel="Send"
        pendingLabel="Sending..."
        tone="change"
        open={confirming}
        pending={send.isPending}
        onOpenChange={setConfirming}
        onConfirm={() => send.mutate()}
      >
        <p>
          Send the {notificationKindLabels[kind].toLowerCase()} to {voters(recipients ?? 0)}
          {groups.length ? ` in ${groups.join(", ")}` : ""}?
        </p>
        <p>Each gets one email. It cannot be called back once sent.</p>
      </ConfirmDeleteDialog>
    </Card>
  );
}

function SendsCard({ query }: { query: ReturnType<typeof useQuery<NotificationsAnswer>> }) {
  return (
    <Card>
      <CardHeader title="Sends" description="Newest first. Messages the mail server did not take are tried again in the background." />
      {query.isPending ? (
        <StateMessage busy>Loading sends...</StateMessage>
      ) : query.isError ? (
        <StateMessage>{errorMessage(query.error, "Failed to load the sends")}</StateMessage>
      ) : query.data.sends.length === 0 ? (
        <StateMessage>Nothing sent yet.</StateMessage>
      ) : (
        <ul className="divide-y divide-slate-100 px-5">
          {query.data.sends.map((s) => (
            <SendRow key={s.id} send={s} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function SendRow({ send }: { send: NotificationSend }) {
  const done = send.sent + send.failed;
  const label = `${notificationKindLabels[send.kind]} of ${formatDateTime(send.createdAt)}`;
  return (
    <li className="space-y-2 py-4 text-sm" aria-label={label}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span>
          <span className="font-semibold text-slate-900">{notificationKindLabels[send.kind]}</span>{" "}
          <span className="text-slate-600">
            {formatDateTime(send.createdAt)} by {send.createdBy} · {send.groups.length ? send.groups.join(", ") : "every group"} · {voters(send.recipients)}
          </span>
        </span>
        <span className="flex gap-2">
          {send.queued > 0 && <Badge tone="amber">{formatInteger(send.queued)} queued</Badge>}
          <Badge tone="green">{formatInteger(send.sent)} sent</Badge>
          {send.failed > 0 && <Badge tone="red">{formatInteger(send.failed)} failed</Badge>}
        </span>
      </div>
      <progress className="h-2 w-full accent-indigo-600" max={Math.max(1, send.recipients)} value={done} aria-label={`${label}: ${done} of ${send.recipients} done`} />
      {send.lastFailure && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">
          Mail server&apos;s reply: <code className="break-all">{send.lastFailure}</code>
        </p>
      )}
    </li>
  );
}

function DeliveryCard({ delivery }: { delivery: NotificationsAnswer["delivery"] }) {
  if (delivery.mode === "smtp") {
    return <p className="text-sm text-slate-600">Messages go to the mail server set by SMTP_URL.</p>;
  }
  return (
    <Card>
      <CardHeader
        title="Outbox"
        description={
          <>
            No mail server is set (SMTP_URL), so each message is written as an .eml file to <code className="break-all">{delivery.dir}</code>.
          </>
        }
      />
      {delivery.messages.length === 0 ? (
        <StateMessage>No messages written yet.</StateMessage>
      ) : (
        <ul className="divide-y divide-slate-100 px-5 text-sm">
          {delivery.messages.map((m) => (
            <li key={m.file} className="flex flex-wrap justify-between gap-2 py-2">
              <span>
                {m.to} <span className="text-slate-600">({m.kind === "password-reset" ? "Password reset" : notificationKindLabels[m.kind]})</span>
              </span>
              <span className="text-slate-600">
                {formatDateTime(m.sentAt)} · <code>{m.file}</code>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
