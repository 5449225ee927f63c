/**
 * Mail's words and answers (docs/mail.md), without zod: the sign-in and reset screens
 * import these, and zod loads only when a form is first used. The schemas are in mail.ts.
 */

export const NOTIFICATION_KINDS = ["invitation", "reminder", "results"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationKindLabels: Record<NotificationKind, string> = {
  invitation: "Invitation",
  reminder: "Reminder",
  results: "Results",
};

/** Who each kind goes to, as the page explains it. */
export const notificationKindHelp: Record<NotificationKind, string> = {
  invitation: "Every voter on the roll with an email address.",
  reminder: "Voters who have not voted in every open position they may vote in, and were not reminded recently.",
  results: "Every voter with an email address, once the results are declared.",
};

export interface NotificationQueued {
  id: string;
  recipients: number;
}

export interface NotificationSend {
  id: string;
  kind: NotificationKind;
  groups: string[];
  createdAt: string;
  createdBy: string;
  recipients: number;
  queued: number;
  sent: number;
  failed: number;
  /** The mail server's reply to the latest failure, if any message failed. */
  lastFailure: string | null;
}

export interface OutboxMessage {
  file: string;
  to: string;
  kind: NotificationKind | "password-reset";
  sentAt: string;
}

export interface NotificationsAnswer {
  sends: NotificationSend[];
  /** Where messages go: a mail server, or the embedded outbox (then its newest files). */
  delivery: { mode: "smtp" } | { mode: "outbox"; dir: string; messages: OutboxMessage[] };
}

/** How long a reset link works. */
export const PASSWORD_RESET_MINUTES = 30;

export const mailText = {
  resetRequested:
    "If that account has a password and an email address, a link to reset the password is on its way. It works for 30 minutes.",
  resetLinkInvalid: "This reset link is not valid or has expired. Ask for a new one.",
  resetDone: "Your password has been reset. Sign in with the new password.",
  resultsNotDeclared: "Results can be sent only after they are declared",
  electionOver: "This election has been declared: send the results instead",
  notificationQueued: (n: number) => `${n} ${n === 1 ? "message" : "messages"} queued`,
} as const;
