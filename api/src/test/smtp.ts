/**
 * A real SMTP server for tests (the `smtp-server` package) on 127.0.0.1: it keeps every message
 * it accepts, can refuse given recipients with a 5xx reply, and can be stopped and started
 * again on the same port (a mail server down during a send, and back later).
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface TestSmtp {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Recipients this server refuses with `550 No such user here`. */
  refuse: Set<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startTestSmtp(port = 0): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const refuse = new Set<string>();
  let server: SMTPServer | null = null;
  let boundPort = port;

  const start = async () => {
    server = new SMTPServer({
      authOptional: true,
      // The test server has no certificate a client would trust.
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      // Loopback only: no reverse DNS lookup of each client.
      disableReverseLookup: true,
      // A pooled client keeps its connection open: a stop closes it instead of waiting.
      closeTimeout: 100,
      onRcptTo(address, _session, callback) {
        if (refuse.has(address.address)) {
          const err = Object.assign(new Error("No such user here"), { responseCode: 550 });
          callback(err);
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
          callback();
        });
      },
    });
    const s = server;
    await new Promise<void>((ok, fail) => {
      s.once("error", fail);
      s.listen(boundPort, "127.0.0.1", () => ok());
    });
    boundPort = (s.server.address() as AddressInfo).port;
  };

  await start();
  return {
    get url() {
      return `smtp://127.0.0.1:${boundPort}`;
    },
    get port() {
      return boundPort;
    },
    received,
    refuse,
    start,
    stop: () =>
      new Promise<void>((ok) => {
        if (!server) return ok();
        const s = server;
        server = null;
        s.close(() => ok());
      }),
  };
}

/** The text part of a raw message, with quoted-printable undone. */
export function textOf(raw: string): string {
  const unfolded = raw.replace(/=\r?\n/g, "");
  return unfolded.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
