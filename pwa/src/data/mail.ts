/** Mail's query keys and options (the calls: api/mail.ts). */
import { queryOptions } from "@tanstack/react-query";
import type { NotificationKind } from "@evoting/shared";
import { mailApi } from "../api/mail";

export const mailKeys = {
  notifications: ["admin", "notifications"] as const,
  recipients: (kind: NotificationKind, groups: string[]) => ["admin", "notifications", "recipients", kind, groups] as const,
};

/** Polled while any send still has messages queued, so progress moves on its own. */
export const notificationsQuery = () =>
  queryOptions({
    queryKey: mailKeys.notifications,
    queryFn: mailApi.notifications,
    refetchInterval: (q) => (q.state.data?.sends.some((s) => s.queued > 0) ? 2_000 : false),
  });

export const recipientsQuery = (kind: NotificationKind, groups: string[]) =>
  queryOptions({ queryKey: mailKeys.recipients(kind, groups), queryFn: () => mailApi.recipients(kind, groups), retry: false });
