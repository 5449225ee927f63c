/** What the app is built from. `server.ts` wires real ones; tests wire a fresh database and a fake clock. */
import type { Clock } from "./clock.ts";
import type { Database } from "./db/client.ts";
import type { Logger } from "./log.ts";
import type { Keys } from "./security/keys.ts";
import type { Limits, SignInThrottle } from "./security/throttle.ts";
import type { ResultsService } from "./services/results/results.ts";
import type { Hub, HubOptions } from "./realtime/hub.ts";
import type { ChatService } from "./chat/service.ts";
import type { Mixer, MixerOptions } from "./services/votes/mixer.ts";
import type { AuditLog } from "./services/accountability/audit-log.ts";
import type { SessionCache } from "./services/auth/sessions.ts";
import type { AuthUser } from "./services/auth/auth-user.ts";
import type { BallotRules } from "./services/votes/ballot-rules.ts";
import type { ReceiptLists } from "./services/votes/receipts.ts";
import type { IntegrityService } from "./services/accountability/ballot-integrity.ts";
import type { ElectionSettingsCache } from "./services/election/settings.ts";
import type { OneAtATime } from "./one-at-a-time.ts";
import type { MailQueue, MailQueueOptions } from "./services/mail/queue.ts";

/** Mail (services/mail): where messages go and what their links point to. */
export interface MailConfig {
  /** SMTP_URL; unset writes .eml files to `outboxDir` instead. */
  smtpUrl?: string;
  from: string;
  appUrl: string;
  /** The embedded outbox: beside the database file by default. */
  outboxDir?: string;
  /** A voter gets at most one reminder in this long. */
  reminderMs: number;
  /** The queue's batch, retries and polling (tests shorten them). */
  queue?: Partial<MailQueueOptions>;
}

export interface Config {
  sessionMs: number;
  voteGraceMs: number;
  /**
   * Trusted proxies in front of the API: 0 uses the socket's address; n takes the n-th
   * X-Forwarded-For entry from the right (the one the outermost of your proxies appended).
   */
  trustProxy: number;
  /** Sign-in limits (tests shrink them; security/throttle.ts LIMITS otherwise). */
  signInLimits?: Partial<Limits>;
  /** Realtime delivery intervals (tests shorten them). */
  realtime?: Partial<HubOptions>;
  /** The ballot mixer (services/votes/mixer.ts): tests apply each ballot before answering. */
  mixer?: Partial<MixerOptions>;
  /** Where the server logs (log.ts); silent when not given (tests, scripts). */
  log?: Logger;
  mail?: Partial<MailConfig>;
}

export interface Deps {
  database: Database;
  clock: Clock;
  keys: Keys;
  config: Config;
  log: Logger;
  throttle: SignInThrottle;
  results: ResultsService;
  hub: Hub;
  chat: ChatService;
  /** Applies pending ballots in shuffled batches; `stop()` before closing the database. */
  mixer: Mixer;
  /** The admin trail; every entry signs the chain's new head with the server's audit key. */
  auditLog: AuditLog;
  /** Sessions served from memory; writes that end a session or change a user call `invalidate()`. */
  sessions: SessionCache;
  /** What votes are checked against, from memory; writes to positions or candidates call `invalidate()`. */
  ballotRules: BallotRules;
  /** The election settings, from memory; writes to them call `invalidate()`. */
  electionSettings: ElectionSettingsCache;
  /** Published receipt lists of closed positions. */
  receiptLists: ReceiptLists;
  /** The integrity check with the key: by itself at every close, and on demand; `stop()` with the mixer. */
  integrity: IntegrityService;
  /** Declaring and starting an election, one at a time in this process. */
  lifecycle: OneAtATime;
  /** The mail queue: sends queued messages in the background; `stop()` before closing the database. */
  mail: MailQueue;
  /** A voter gets at most one reminder in this long (REMINDER_HOURS). */
  reminderMs: number;
}

export type { AuthUser };

export type AppEnv = {
  Variables: {
    user: AuthUser;
    tokenHash: string;
    /** Set when the token is a polling-station device's: the station session it serves. */
    stationSessionId?: string;
    /** This request's id in the log (http/request-log.ts). */
    requestId: string;
  };
};
