/** Builds the dependency graph once; shared by the server, scripts and tests. */
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

export function buildDeps(database: Database, clock: Clock, keys: Keys, config: Partial<Config> = {}): Deps {
  const log = config.log ?? silentLogger;
  const fullConfig: Config = { sessionMs: 12 * 3_600_000, voteGraceMs: 10 * 60_000, trustProxy: 0, ...config };
  const electionSettings = new ElectionSettingsCache(database);
  const results = new ResultsService(database, clock, electionSettings, undefined, fullConfig.voteGraceMs);
  const hub = createHub(results, config.realtime, log);
  const mixer = new Mixer(database, keys, () => hub.resultsChanged(), { now: () => clock.now(), graceMs: fullConfig.voteGraceMs, ...config.mixer }, log).start();
  const integrity = new IntegrityService({ database, keys, clock, config: fullConfig, mixer, log }).start();
  const sessions = new SessionCache(database);
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
    ballotRules: new BallotRules(database),
    electionSettings,
    receiptLists: new ReceiptLists(database, keys),
    integrity,
    lifecycle: new OneAtATime(),
  };
}

/**
 * Stops what runs in the background and closes the database, in the order that lets nothing
 * outlive it: the hub; a look or integrity check under way; the writes queued; the mixer's
 * last pass (it applies what is due); then the connections. The server's shutdown and every
 * test app end this way.
 */
export async function closeDeps(deps: Deps): Promise<void> {
  deps.hub.close();
  await deps.integrity.stop();
  await deps.database.writer.drain();
  await deps.mixer.stop();
  await deps.database.writer.drain();
  deps.database.close();
}
