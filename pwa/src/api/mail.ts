/**
 * Mail calls (docs/mail.md): 'Notify Voters' (admins send, observers read) and the
 * password reset a signed-out user asks for. Online-only: nothing here is kept on the device.
 * Query options: data/mail.ts.
 */
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
