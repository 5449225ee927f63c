/**
 * The words of each message, in plain text and HTML. Short and plain: the election's title and
 * window and a link. What goes in is only what the caller passes, so a message can never carry a
 * date of birth, a password, a credential or a choice (compose.test.ts checks the words).
 */
import { PASSWORD_RESET_MINUTES, type NotificationKind } from "@evoting/shared";

export type MailKind = NotificationKind | "password-reset";

export interface ComposeInput {
  kind: MailKind;
  name: string;
  election: { title: string; subtitle: string; startTime: number; endTime: number };
  appUrl: string;
  /** Password reset only: the link with its token. */
  resetLink?: string;
}

export interface Composed {
  subject: string;
  text: string;
  html: string;
}

// The association is at the University of Port Harcourt (the roll's email domain is fixed to
// it), so times are written in its time zone and say so. One formatter for every message:
// making one costs about as much as composing the rest of the message.
const dateTime = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Africa/Lagos",
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZoneName: "short",
});
const when = (ms: number) => dateTime.format(ms);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

export function composeMessage(input: ComposeInput): Composed {
  const { election, appUrl } = input;
  const login = `${appUrl}/login`;
  const window = `Voting opens ${when(election.startTime)} and closes ${when(election.endTime)}.`;
  let subject: string;
  let lines: string[];
  let link = { href: login, label: "Sign in to vote" };
  switch (input.kind) {
    case "invitation":
      subject = `You are invited to vote: ${election.title}`;
      lines = [`You are on the voters' roll for ${election.title} (${election.subtitle}).`, window, "Sign in with your matriculation number to vote:"];
      break;
    case "reminder":
      subject = `Reminder: you have not finished voting in ${election.title}`;
      lines = [`You still have positions to vote for in ${election.title}.`, `Voting closes ${when(election.endTime)}.`, "Sign in to cast your vote:"];
      break;
    case "results":
      subject = `Results declared: ${election.title}`;
      lines = [`The results of ${election.title} (${election.subtitle}) have been declared.`, "Sign in to see them:"];
      link = { href: login, label: "See the results" };
      break;
    case "password-reset":
      subject = "Reset your CSC E-Voting password";
      lines = [
        "Someone asked to reset the password of your CSC E-Voting account.",
        `Open this link within ${PASSWORD_RESET_MINUTES} minutes to choose a new password. It works once, and signs the account out everywhere.`,
      ];
      link = { href: input.resetLink ?? login, label: "Choose a new password" };
      break;
  }
  const closing = input.kind === "password-reset" ? "If you did not ask for this, ignore this message: your password stays as it is." : "This message was sent by the election committee.";
  const greeting = `Dear ${input.name},`;
  const text = [greeting, "", ...lines, link.href, "", closing, ""].join("\n");
  const html = [
    "<!doctype html><html><body style=\"font-family:sans-serif;line-height:1.5\">",
    `<p>${escapeHtml(greeting)}</p>`,
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
    `<p style="color:#555">${escapeHtml(closing)}</p>`,
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}
