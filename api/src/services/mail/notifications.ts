/**
 * The notices an admin sends from 'Notify Voters' (docs/mail.md): who receives each
 * kind, queuing one message per recipient in one write, and each send's progress.
 *
 * - invitation: every voter on the roll with an email;
 * - reminder: voters with an email who have not voted in every open position they may vote
 *   in, and were not reminded in the last REMINDER_HOURS;
 * - results: every voter with an email, once the current election is declared.
 * Each may be limited to roll groups. Whether someone voted is read as "has a participation
 * row" and nothing more: nothing here reads what anyone chose.
 */
import { randomUUID } from "node:crypto";
import type { InArgs } from "@libsql/client";
import { mailText, type NotificationKind, type NotificationSend, type NotificationsAnswer } from "@evoting/shared";
import type { Database } from "../../db/client.ts";
import { isVoterSql } from "../../db/voters.ts";
import { CURRENT_ELECTION_SQL } from "../../db/elections.ts";
import { currentElection } from "../election/elections.ts";
import type { MailQueue } from "./queue.ts";

export class NotificationRefused extends Error {}

interface Audience {
  kind: NotificationKind;
  groups: string[];
  now: number;
  reminderMs: number;
}

const IN_GROUPS = `EXISTS (SELECT 1 FROM json_each(u.groups) g
   WHERE lower(trim(g.value)) IN (SELECT lower(trim(value)) FROM json_each(:groups)))`;

/** A voter who may vote in an open position and has not. */
const HAS_VOTE_LEFT = `EXISTS (SELECT 1 FROM positions p
   WHERE p.election_id = ${CURRENT_ELECTION_SQL} AND p.start_time <= :now AND p.end_time > :now
     AND (p.eligible_groups = '[]' OR EXISTS (
           SELECT 1 FROM json_each(u.groups) g, json_each(p.eligible_groups) e WHERE lower(trim(g.value)) = lower(trim(e.value))))
     AND NOT EXISTS (SELECT 1 FROM participations pa WHERE pa.voter_id = u.id AND pa.position_id = p.id))`;

const REMINDED_LATELY = "EXISTS (SELECT 1 FROM mail_messages m WHERE m.user_id = u.id AND m.kind = 'reminder' AND m.created_at > :since)";

/** SQL: json_each and EXISTS over participations, which drizzle has no builder for. */
function audienceWhere({ kind, groups, now, reminderMs }: Audience): { sql: string; args: Record<string, string | number> } {
  const parts = [isVoterSql("u"), "u.email IS NOT NULL", "u.email <> ''"];
  const args: Record<string, string | number> = {};
  if (groups.length > 0) {
    parts.push(IN_GROUPS);
    args.groups = JSON.stringify(groups);
  }
  if (kind === "reminder") {
    parts.push(HAS_VOTE_LEFT, `NOT ${REMINDED_LATELY}`);
    args.now = now;
    args.since = now - reminderMs;
  }
  return { sql: parts.join(" AND "), args };
}

/** Refuses a kind the election's state does not allow: results before the declaration, the others after it. */
async function checkKind(database: Database, kind: NotificationKind) {
  const election = await currentElection(database);
  if (kind === "results" && election.state !== "declared") throw new NotificationRefused(mailText.resultsNotDeclared);
  if (kind !== "results" && election.state !== "open") throw new NotificationRefused(mailText.electionOver);
  return election;
}

export async function countRecipients(database: Database, audience: Audience): Promise<number> {
  await checkKind(database, audience.kind);
  const where = audienceWhere(audience);
  const r = await database.client.execute({ sql: `SELECT count(*) AS n FROM users u WHERE ${where.sql}`, args: where.args as InArgs });
  return Number(r.rows[0]?.n ?? 0);
}

/** Queues the send's messages in one write, and wakes the queue. */
export async function queueNotification(
  { database, mail }: { database: Database; mail: MailQueue },
  audience: Audience,
  createdBy: string,
): Promise<{ id: string; recipients: number }> {
  const election = await checkKind(database, audience.kind);
  const id = randomUUID();
  const where = audienceWhere(audience);
  const { now } = audience;
  const [, inserted] = await database.writer.submit([
    {
      sql: "INSERT INTO mail_sends (id, kind, groups, election_id, created_at, created_by, recipients) VALUES (?, ?, ?, ?, ?, ?, 0)",
      args: [id, audience.kind, JSON.stringify(audience.groups), election.id, now, createdBy],
    },
    {
      sql: `INSERT INTO mail_messages (send_id, user_id, kind, to_address, next_at, created_at)
            SELECT :sendId, u.id, :kind, u.email, :now, :now FROM users u WHERE ${where.sql}`,
      args: { ...where.args, sendId: id, kind: audience.kind, now },
    },
    { sql: "UPDATE mail_sends SET recipients = changes() WHERE id = ?", args: [id] },
  ]);
  mail.wake();
  return { id, recipients: inserted.rowsAffected };
}

const parseGroups = (v: unknown): string[] => {
  try {
    const list: unknown = JSON.parse(String(v));
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
};

/** The newest sends with their counts, and where messages go. */
export async function listNotifications(database: Database, mail: MailQueue): Promise<NotificationsAnswer> {
  // SQL: counts per state and the latest reply per send, in one batch (a snapshot).
  const [sendRows, outboxRows] = await database.client.batch(
    [
      `SELECT s.id, s.kind, s.groups, s.created_at, s.created_by, s.recipients,
              (SELECT count(*) FROM mail_messages m WHERE m.send_id = s.id AND m.state IN ('queued', 'sending')) AS queued,
              (SELECT count(*) FROM mail_messages m WHERE m.send_id = s.id AND m.state = 'sent') AS sent,
              (SELECT count(*) FROM mail_messages m WHERE m.send_id = s.id AND m.state = 'failed') AS failed,
              (SELECT m.last_reply FROM mail_messages m WHERE m.send_id = s.id AND m.last_reply IS NOT NULL
                ORDER BY m.state = 'failed' DESC, m.id DESC LIMIT 1) AS last_failure
         FROM mail_sends s ORDER BY s.created_at DESC, s.rowid DESC LIMIT 50`,
      `SELECT outbox_file, to_address, kind, sent_at FROM mail_messages
        WHERE outbox_file IS NOT NULL ORDER BY sent_at DESC, id DESC LIMIT 50`,
    ],
    "read",
  );
  const sends: NotificationSend[] = sendRows.rows.map((r) => ({
    id: String(r.id),
    kind: String(r.kind) as NotificationKind,
    groups: parseGroups(r.groups),
    createdAt: new Date(Number(r.created_at)).toISOString(),
    createdBy: String(r.created_by),
    recipients: Number(r.recipients),
    queued: Number(r.queued),
    sent: Number(r.sent),
    failed: Number(r.failed),
    lastFailure: r.last_failure === null ? null : String(r.last_failure),
  }));
  const { transport } = mail;
  if (transport.mode === "smtp" || transport.outboxDir === null) return { sends, delivery: { mode: "smtp" } };
  return {
    sends,
    delivery: {
      mode: "outbox",
      dir: transport.outboxDir,
      messages: outboxRows.rows.map((r) => ({
        file: String(r.outbox_file),
        to: String(r.to_address),
        kind: String(r.kind) as NotificationsAnswer["sends"][number]["kind"] | "password-reset",
        sentAt: new Date(Number(r.sent_at)).toISOString(),
      })),
    },
  };
}
