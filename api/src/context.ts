/** Builds the dependency graph once; shared by the server, scripts and tests. */
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { endStreamsOfEndedSessions } from "./realtime/stream-auth.ts";
import type { Clock } from "./clock.ts";
import type { Config, Deps } from "./deps.ts";
import type { Database } from "./db/client.ts";
import { ChatService } from "./chat/service.ts";
import { createHub } from "./realtime/hub.ts";
import { silentLogger } from "./log.ts";
import type { Keys } from "./security/keys.ts";
import { LIMITS, SignInThrottle } from "./security/throttle.ts";
import { ResultsService } from "./services/results/results.ts";
import { AuditLog } from "./services/accountability/audit-log.ts";
import { Mixer } from "./services/votes/mixer.ts";
import { SessionCache } from "./services/auth/sessions.ts";
import { BallotRules } from "./services/votes/ballot-rules.ts";
import { ReceiptLists } from "./services/votes/receipts.ts";
import { IntegrityService } from "./services/accountability/ballot-integrity.ts";
import { ElectionSettingsCache } from "./services/election/settings.ts";
import { OneAtATime } from "./one-at-a-time.ts";
import { MailQueue } from "./services/mail/queue.ts";
import { createMailTransport } from "./services/mail/transport.ts";
import type { MailConfig } from "./deps.ts";

const DEFAULT_FROM = "CSC E-Voting <no-reply@localhost>";

function mailQueue(database: Database, clock: Clock, keys: Keys, log: Deps["log"], config: Partial<MailConfig> = {}): MailQueue {
  const from = config.from ?? DEFAULT_FROM;
  // The embedded default lives beside the database file, like its key; a database with no
  // file (tests in memory, a libSQL server) gets one in the system's temporary folder.
  const outboxDir = config.outboxDir ?? (database.filePath ? join(dirname(database.filePath), "outbox") : join(tmpdir(), "evoting-outbox"));
  const idHost = /@([^>\s]+)/.exec(from)?.[1] ?? "localhost";
  const transport = createMailTransport({ smtpUrl: config.smtpUrl, outboxDir, idHost });
  return new MailQueue({ database, clock, keys, log }, transport, { from, appUrl: config.appUrl ?? "http://127.0.0.1:3000" }, config.queue).start();
}

export function buildDeps(database: Database, clock: Clock, keys: Keys, config: Partial<Config> = {}): Deps {
  const log = config.log ?? silentLogger;
  const fullConfig: Config = { sessionMs: 12 * 3_600_000, voteGraceMs: 10 * 60_000, trustProxy: 0, ...config };
  const electionSettings = new ElectionSettingsCache(database);
  const results = new ResultsService(database, clock, electionSettings, undefined, fullConfig.voteGraceMs);
  const hub = createHub(results, config.realtime, log);
  const mixer = new Mixer(database, keys, () => hub.resultsChanged(), { now: () => clock.now(), graceMs: fullConfig.voteGraceMs, ...config.mixer }, log).start();
  const integrity = new IntegrityService({ database, keys, clock, config: fullConfig, mixer, log }).start();
  const sessions = new SessionCache(database, clock);
  sessions.onInvalidate(() => {
    endStreamsOfEndedSessions({ database, hub }, clock.now()).catch((error: unknown) => log.error({ err: error }, "ending the streams of ended sessions failed"));
  });
  return {
    database,
    clock,
    keys,
    log,
    config: fullConfig,
    throttle: new SignInThrottle(database, clock, { ...LIMITS, ...config.signInLimits }),
    results,
    hub,
    chat: new ChatService(database, clock, hub),
    mixer,
    auditLog: new AuditLog(database, keys),
    sessions,
    ballotRules: new BallotRules(database, clock),
    electionSettings,
    receiptLists: new ReceiptLists(database, keys),
    integrity,
    lifecycle: new OneAtATime(),
    mail: mailQueue(database, clock, keys, log, config.mail),
    reminderMs: config.mail?.reminderMs ?? 6 * 3_600_000,
  };
}

/**
 * Stops what runs in the background and closes the database, in the order that lets nothing
 * outlive it: the hub; the mail queue's pass under way; a look or integrity check under way; the writes queued; the mixer's
 * last pass (it applies what is due); then the connections. The server's shutdown and every
 * test app end this way.
 */
export async function closeDeps(deps: Deps): Promise<void> {
  deps.hub.close();
  await deps.mail.stop();
  await deps.integrity.stop();
  await deps.database.writer.drain();
  await deps.mixer.stop();
  await deps.database.writer.drain();
  deps.database.close();
}
