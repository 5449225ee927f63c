/** What the app is built from. `server.ts` wires real ones; tests wire a fresh database and a fake clock. */
import type { Role } from "@evoting/shared";
import type { Clock } from "./clock.ts";
import type { Database } from "./db/client.ts";
import type { Keys } from "./security/keys.ts";
import type { Limits, SignInThrottle } from "./security/throttle.ts";
import type { ResultsService } from "./services/results/results.ts";
import type { Hub, HubOptions } from "./realtime/hub.ts";
import type { ChatService } from "./chat/service.ts";
import type { Mixer, MixerOptions } from "./services/votes/mixer.ts";
import type { AuditLog } from "./services/accountability/audit-log.ts";
import type { SessionCache } from "./services/auth/sessions.ts";
import type { BallotRules } from "./services/votes/ballot-rules.ts";
import type { ReceiptLists } from "./services/votes/receipts.ts";

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
}

export interface Deps {
  database: Database;
  clock: Clock;
  keys: Keys;
  config: Config;
  throttle: SignInThrottle;
  results: ResultsService;
  hub: Hub;
  chat: ChatService;
  /** Applies pending ballots in shuffled batches (issue 9); `stop()` before closing the database. */
  mixer: Mixer;
  /** The admin trail; every entry signs the chain's new head with the server's audit key. */
  auditLog: AuditLog;
  /** Sessions served from memory; writes that end a session or change a user call `invalidate()`. */
  sessions: SessionCache;
  /** What votes are checked against, from memory; writes to positions or candidates call `invalidate()`. */
  ballotRules: BallotRules;
  /** Published receipt lists of closed positions. */
  receiptLists: ReceiptLists;
}

export interface AuthUser {
  id: string;
  name: string;
  role: Role;
  matricNumber: string;
  email: string | null;
  hasPassword: boolean;
}

export type AppEnv = {
  Variables: {
    user: AuthUser;
    tokenHash: string;
  };
};
