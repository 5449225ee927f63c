/**
 * The mail queue: messages wait in `mail_messages` and are sent here, in the background.
 *
 * - A pass claims a batch of due messages in one write (state 'sending', a try counted), sends
 *   them a few at a time, and records every outcome in one write. Claims are one atomic
 *   UPDATE ... RETURNING, so several processes on one database never take the same message.
 * - A failure the server may get over (no connection, a 4xx reply) is tried again later,
 *   waiting twice as long each time, up to `maxAttempts`; a 5xx reply fails the message at
 *   once. Either way the server's reply is kept for the admin's page.
 * - Nothing is sent twice: a sent message is marked sent in the write after its send, and a
 *   message left 'sending' by a process that stopped mid-send is marked failed (with why),
 *   not sent again, since the server may already have it. A restart resumes everything else.
 * - Single-flight: one pass at a time; `wake()` after a message is queued starts one soon.
 * - Paced: a message starts at most every `gapMs` (100 a second by default). Building and
 *   writing a message takes the event loop 1-3 ms; against a mail server that answers at
 *   once, an unpaced sender would keep the loop busy nearly all the time, and requests would
 *   wait behind it. Paced, it takes a fraction of the loop, and 10,000 invitations go in under
 *   two minutes (providers limit senders to such rates anyway).
 */
import type { InStatement } from "@libsql/client";
import type { Clock } from "../../clock.ts";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../log.ts";
import { signToken, type Keys } from "../../security/keys.ts";
import { composeMessage, type MailKind } from "./compose.ts";
import { describeFailure, type MailTransport } from "./transport.ts";

export interface MailQueueOptions {
  /** Messages claimed per pass. */
  batch: number;
  /** Sends under way at once. */
  concurrency: number;
  /** The least time between the starts of two sends (ms): at most 1000 / gapMs messages a second. */
  gapMs: number;
  /** How often to look for messages another process queued, or a retry that fell due. */
  pollMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** A claim older than this was cut off by a stop mid-send (longer than any SMTP timeout). */
  staleMs: number;
}

export const MAIL_QUEUE_DEFAULTS: MailQueueOptions = {
  batch: 100,
  concurrency: 8,
  gapMs: 10,
  pollMs: 5_000,
  maxAttempts: 8,
  retryBaseMs: 30_000,
  retryMaxMs: 30 * 60_000,
  staleMs: 10 * 60_000,
};

export interface MailSettings {
  from: string;
  appUrl: string;
}

export const INTERRUPTED_REPLY = "The server stopped while this message was being sent; it is not sent again, so that no one gets it twice";
const EXPIRED_REPLY = "The reset link expired before the message could be sent";

interface Claimed {
  id: number;
  kind: MailKind;
  to: string;
  attempts: number;
  name: string;
  election: { title: string; subtitle: string; startTime: number; endTime: number } | null;
  resetExpiresAt: number | null;
  resetId: string | null;
}

export class MailQueue {
  private running: Promise<number> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = 0;
  private stopped = false;
  /** Woken while a pass ran: look again right after it. */
  private wokenMeanwhile = false;
  /** When the next send may start (performance.now()): the pacing of `gapMs`. */
  private nextStart = 0;
  private readonly options: MailQueueOptions;

  constructor(
    private readonly deps: { database: Database; clock: Clock; keys: Keys; log: Logger },
    readonly transport: MailTransport,
    readonly settings: MailSettings,
    options: Partial<MailQueueOptions> = {},
  ) {
    this.options = { ...MAIL_QUEUE_DEFAULTS, ...options };
  }

  start(): this {
    this.schedule(0);
    return this;
  }

  /** Something was queued: look now rather than at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) this.wokenMeanwhile = true;
    else this.schedule(0);
  }

  /** One pass (or the one under way): answers how many messages it settled. */
  runOnce(): Promise<number> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
      if (this.wokenMeanwhile && !this.stopped) {
        this.wokenMeanwhile = false;
        this.schedule(0);
      }
    });
    return this.running;
  }

  /** Passes until nothing is due now (tests; a retry waiting for later stays queued). */
  async drain(): Promise<void> {
    while ((await this.runOnce()) > 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.transport.close();
  }

  /** Runs a pass in `ms`, unless one is already due sooner. */
  private schedule(ms: number) {
    const at = Date.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.runOnce().then(
        (settled) => {
          if (!this.stopped) this.schedule(settled > 0 ? 0 : this.options.pollMs);
        },
        (err: unknown) => {
          this.deps.log.error({ err }, "mail queue pass failed");
          if (!this.stopped) this.schedule(this.options.pollMs);
        },
      );
    }, ms);
    this.timer.unref();
  }

  private async pass(): Promise<number> {
    const { database, clock } = this.deps;
    const now = clock.now();
    // Reads first: an idle queue costs a read per poll, never a write.
    const due = await database.client.execute({
      // SQL: two indexed probes in one round trip.
      sql: `SELECT EXISTS (SELECT 1 FROM mail_messages WHERE state = 'queued' AND next_at <= ?) AS due,
                   EXISTS (SELECT 1 FROM mail_messages WHERE state = 'sending' AND claimed_at < ?) AS stale`,
      args: [now, now - this.options.staleMs],
    });
    const row = due.rows[0];
    if (Number(row?.stale) === 1) {
      await database.writer.submit([
        {
          sql: "UPDATE mail_messages SET state = 'failed', last_reply = ? WHERE state = 'sending' AND claimed_at < ?",
          args: [INTERRUPTED_REPLY, now - this.options.staleMs],
        },
      ]);
    }
    if (Number(row?.due) !== 1) return 0;
    const claimed = await this.claim(now);
    if (claimed.length === 0) return 0;
    const outcomes = await this.sendAll(claimed);
    await database.writer.submit(outcomes);
    return claimed.length;
  }

  private async claim(now: number): Promise<Claimed[]> {
    const { database } = this.deps;
    const [taken] = await database.writer.submit([
      {
        sql: `UPDATE mail_messages SET state = 'sending', claimed_at = ?, attempts = attempts + 1
               WHERE id IN (SELECT id FROM mail_messages WHERE state = 'queued' AND next_at <= ? ORDER BY next_at, id LIMIT ?)
               RETURNING id`,
        args: [now, now, this.options.batch],
      },
    ]);
    const ids = taken.rows.map((r) => Number(r.id));
    if (ids.length === 0) return [];
    // SQL: the claimed rows with their recipient's name, election and reset link, in one read.
    const read = await database.client.execute({
      sql: `SELECT m.id, m.kind, m.to_address, m.attempts, m.reset_id, u.name,
                   e.title, e.subtitle, e.start_time, e.end_time, r.expires_at AS reset_expires_at
              FROM mail_messages m
              JOIN users u ON u.id = m.user_id
              LEFT JOIN mail_sends s ON s.id = m.send_id
              LEFT JOIN elections e ON e.id = coalesce(s.election_id, (SELECT max(id) FROM elections))
              LEFT JOIN password_resets r ON r.id = m.reset_id
             WHERE m.id IN (SELECT value FROM json_each(?))`,
      args: [JSON.stringify(ids)],
    });
    return read.rows.map((r) => ({
      id: Number(r.id),
      kind: String(r.kind) as MailKind,
      to: String(r.to_address),
      attempts: Number(r.attempts),
      name: String(r.name),
      election: r.title === null ? null : { title: String(r.title), subtitle: String(r.subtitle), startTime: Number(r.start_time), endTime: Number(r.end_time) },
      resetExpiresAt: r.reset_expires_at === null ? null : Number(r.reset_expires_at),
      resetId: r.reset_id === null ? null : String(r.reset_id),
    }));
  }

  private async sendAll(claimed: Claimed[]): Promise<InStatement[]> {
    const outcomes: InStatement[] = [];
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) {
        const message = claimed[next++];
        await this.paced();
        outcomes.push(await this.sendOne(message));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, claimed.length) }, worker));
    return outcomes;
  }

  /** Waits for this send's turn: each start takes the next free slot, `gapMs` after the one before. */
  private async paced(): Promise<void> {
    const now = performance.now();
    const at = Math.max(now, this.nextStart);
    this.nextStart = at + this.options.gapMs;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }

  private async sendOne(m: Claimed): Promise<InStatement> {
    const { clock, keys } = this.deps;
    const failed = (reply: string): InStatement => ({
      sql: "UPDATE mail_messages SET state = 'failed', last_reply = ? WHERE id = ? AND state = 'sending'",
      args: [reply, m.id],
    });
    let resetLink: string | undefined;
    if (m.kind === "password-reset") {
      if (m.resetId === null || m.resetExpiresAt === null || m.resetExpiresAt <= clock.now()) return failed(EXPIRED_REPLY);
      const token = signToken(keys, { k: "reset", exp: m.resetExpiresAt, id: m.resetId });
      resetLink = `${this.settings.appUrl}/reset-password?token=${token}`;
    }
    if (!m.election) return failed("No election to write about");
    const composed = composeMessage({ kind: m.kind, name: m.name, election: m.election, appUrl: this.settings.appUrl, resetLink });
    try {
      const { outboxFile } = await this.transport.send({ id: m.id, from: this.settings.from, to: m.to, ...composed });
      return {
        sql: "UPDATE mail_messages SET state = 'sent', sent_at = ?, outbox_file = ?, last_reply = NULL WHERE id = ? AND state = 'sending'",
        args: [clock.now(), outboxFile, m.id],
      };
    } catch (err) {
      const { reply, permanent } = describeFailure(err);
      if (permanent || m.attempts >= this.options.maxAttempts) return failed(reply);
      const wait = Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** (m.attempts - 1));
      return {
        sql: "UPDATE mail_messages SET state = 'queued', next_at = ?, last_reply = ? WHERE id = ? AND state = 'sending'",
        args: [clock.now() + wait, reply, m.id],
      };
    }
  }
}
