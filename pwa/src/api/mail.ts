/**
 * Mail calls (docs/mail.md): 'Notify Voters' (admins send, observers read) and the
 * password reset a signed-out user asks for. Online-only: nothing here is kept on the device.
 */
import { queryOptions } from "@tanstack/react-query";
import type { NotificationInput, NotificationKind, NotificationQueued, NotificationsAnswer } from "@evoting/shared";
import { request } from "./client";

export const mailApi = {
  notifications: () => request<NotificationsAnswer>("/admin/notifications"),
  recipients: (kind: NotificationKind, groups: string[]) =>
    request<{ recipients: number }>(`/admin/notifications/recipients?${new URLSearchParams({ kind, groups: groups.join(",") }).toString()}`),
  notify: (input: NotificationInput) => request<NotificationQueued>("/admin/notifications", { method: "POST", body: input }),
  requestPasswordReset: (matricNumber: string) =>
    request<{ message: string }>("/auth/password-reset", { method: "POST", body: { matricNumber }, signOutOn401: false }),
  confirmPasswordReset: (token: string, newPassword: string) =>
    request<{ message: string }>("/auth/password-reset/confirm", { method: "POST", body: { token, newPassword }, signOutOn401: false }),
};

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
