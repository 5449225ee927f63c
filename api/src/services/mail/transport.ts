/**
 * Where messages go: a mail server over SMTP (nodemailer, pooled connections; STARTTLS when
 * the server offers it, TLS from the start for smtps://), or, with no SMTP_URL, the embedded
 * outbox: each message written as an .eml file, named by its id so a second try of the same
 * message writes the same file.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTransport, type Transporter } from "nodemailer";

export interface OutgoingMessage {
  /** The queue's row id: the Message-ID and the outbox file name come from it. */
  id: number;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  readonly mode: "smtp" | "outbox";
  readonly outboxDir: string | null;
  /** Resolves once the server accepted it (or the file is written); rejects with the server's reply. */
  send(message: OutgoingMessage): Promise<{ outboxFile: string | null }>;
  close(): void;
}

/** A failure and whether another try could succeed (a 5xx reply will not). */
export function describeFailure(err: unknown): { reply: string; permanent: boolean } {
  const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
  const reply = (e.response ?? `${e.code ? `${e.code}: ` : ""}${e.message ?? String(err)}`).slice(0, 500);
  return { reply, permanent: typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600 };
}

const messageId = (id: number, host: string) => `<evoting-${id}@${host}>`;

export interface TransportOptions {
  smtpUrl?: string;
  outboxDir: string;
  /** The host part of Message-IDs (from MAIL_FROM's domain). */
  idHost: string;
}

export function createMailTransport({ smtpUrl, outboxDir, idHost }: TransportOptions): MailTransport {
  if (smtpUrl) {
    const smtp: Transporter = createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 4,
      // A server that does not answer is a failed try, retried later, never a stuck queue.
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    });
    return {
      mode: "smtp",
      outboxDir: null,
      send: async (m) => {
        await smtp.sendMail({ from: m.from, to: m.to, subject: m.subject, text: m.text, html: m.html, messageId: messageId(m.id, idHost) });
        return { outboxFile: null };
      },
      close: () => smtp.close(),
    };
  }
  const stream: Transporter = createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  let made = false;
  return {
    mode: "outbox",
    outboxDir,
    send: async (m) => {
      const info = (await stream.sendMail({ from: m.from, to: m.to, subject: m.subject, text: m.text, html: m.html, messageId: messageId(m.id, idHost) })) as { message: Buffer };
      if (!made) {
        await mkdir(outboxDir, { recursive: true });
        made = true;
      }
      const file = `${String(m.id).padStart(8, "0")}.eml`;
      await writeFile(join(outboxDir, file), info.message);
      return { outboxFile: file };
    },
    close: () => stream.close(),
  };
}
