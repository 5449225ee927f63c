/**
 * The integrity check, with the server's key: every participation matches exactly one ballot
 * (counted or still pending) with the same position and choice, every ballot exactly one
 * participation, every ballot's MAC is its own, the tallies equal the ballots
 * (./tally-check.ts), the audit log's chain and signed head hold (./audit-log.ts), and every
 * declared election's archive is as sealed at its declaration (../election/archive-seal.ts).
 *
 * Why the key: someone who can write the database file but lacks the key (the operator of a
 * separate libSQL server, anyone on the database host) can move ballots between candidates
 * and adjust the tallies so every count agrees. The participation seals its ballot's id and
 * choice, and each ballot carries a MAC (../votes/ballot-mac.ts); neither can be made again
 * without the key, so such an edit shows here, ballot by ballot.
 *
 * What a problem names: ballot ids and positions, never a voter next to a choice (the report
 * is shown on the Admin Panel and printed by `npm run audit`).
 *
 * Runs at every position's close (IntegrityService), on demand from the Admin Panel, and as
 * part of `npm run audit`; each run in the service is recorded in `integrity_checks`.
 */
import { and, desc, eq, gt, lte, max, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { integrityChecks, positions } from "../../db/schema.ts";
import type { Clock } from "../../clock.ts";
import type { Keys } from "../../security/keys.ts";
import type { Logger } from "../../log.ts";
import { OneAtATime } from "../../one-at-a-time.ts";
import type { Mixer } from "../votes/mixer.ts";
import { verifyAuditChain, type AuditChainReport } from "./audit-log.ts";
import type { TallyCheckReport } from "./tally-check.ts";
import { INTEGRITY_READS, integrityOfReads, type BallotMatchReport } from "./ballot-match.ts";
import { checkInCountThread } from "../results/counter.ts";

/** Sentences for what the tally check found (none when it passed). */
export function tallyProblems(report: TallyCheckReport): string[] {
  return [
    ...report.positionMismatches.map((m) => `Position ${m.positionId}: ${m.ballots} ballots and ${m.pending} pending for ${m.participations} participations`),
    ...report.tallyMismatches.map((m) => `Candidate ${m.id}: tally ${m.vote_count}, ballots ${m.counted}`),
    ...report.choiceTallyMismatches.map((m) => `Position ${m.positionId}: '${m.choice}' tally ${m.stored}, ballots ${m.counted}`),
    ...(report.integrity === "ok" ? [] : [`Database file: ${report.integrity}`]),
  ];
}

export interface IntegrityResult {
  ok: boolean;
  problems: string[];
  tallies: TallyCheckReport;
  ballots: BallotMatchReport;
  chain: AuditChainReport;
}

/**
 * Everything the integrity check covers, with the key. The recounts and the ballots are read
 * in ONE snapshot that no await ever holds open (so the mixer, votes and results reads never
 * meet it). For a database file the count thread reads and checks it on its own connection:
 * reading every sealed participation and ballot takes over a second at 20,000 ranked ballots,
 * and unsealing them longer, all of it time the event loop would answer nothing. Any other
 * database (`:memory:`, remote) is read here in one read batch and checked with turns for the
 * event loop.
 */
export async function runIntegrityCheck(database: Database, keys: Keys): Promise<IntegrityResult> {
  const found = database.filePath
    ? await checkInCountThread(database.filePath, keys)
    : await integrityOfReads(keys, await database.client.batch([...INTEGRITY_READS], "read"));
  const chain = await verifyAuditChain(database, keys.audit);
  const problems = [...tallyProblems(found.tallies), ...found.ballots.problems, ...chainProblems(chain), ...found.archiveProblems];
  return { ok: problems.length === 0, problems, tallies: found.tallies, ballots: found.ballots, chain };
}

/** Sentences for what the audit log's check found. */
export const chainProblems = (chain: AuditChainReport): string[] => chain.problems.map((p) => `Audit log entry ${p.seq}${p.id ? ` (${p.id})` : ""}: ${p.problem}`);

export type IntegrityTrigger = "close" | "declaration" | "admin" | "start";

export interface IntegrityRecord {
  at: number;
  trigger: IntegrityTrigger;
  ok: boolean;
  problems: string[];
}

/** How often a process looks for positions that closed since the last check. */
const CLOSE_POLL_MS = 1_000;

/**
 * Runs the check and records each run in `integrity_checks`: by itself after a position
 * closes (its end plus the offline grace: the mixer applies its remaining ballots first, so
 * its tallies are final), and when asked (the Admin Panel, a declaration). Any process that
 * sees a close since the last recorded close check runs one; two at once both record theirs.
 */
export class IntegrityService {
  private timer: NodeJS.Timeout | null = null;
  private readonly checks = new OneAtATime();
  /** The timer's look for closed positions under way (with the check it may run), or null. */
  private looking: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly deps: { database: Database; keys: Keys; clock: Clock; config: { voteGraceMs: number }; mixer: Mixer; log: Logger },
  ) {}

  start(): this {
    if (this.timer || this.stopped) return this;
    this.timer = setInterval(() => {
      // A database closed under a timer (an app that was never stopped): nothing to do.
      if (this.deps.database.client.closed) return void this.stop();
      if (this.looking) return;
      this.looking = this.tick()
        .catch((error: unknown) => this.deps.log.error({ err: error }, "integrity check: the look for closed positions failed"))
        .finally(() => (this.looking = null));
    }, CLOSE_POLL_MS);
    this.timer.unref();
    return this;
  }

  /**
   * Stops the timer and waits for a look or a check already under way, so none outlives the
   * database: call it before closing the database (as the mixer's `stop`).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.looking;
    await this.checks.settled();
  }

  /** One look for positions closed since the last close check; runs one check when there are. */
  async tick(): Promise<IntegrityRecord | null> {
    const closedBy = this.deps.clock.now() - this.deps.config.voteGraceMs;
    const { db } = this.deps.database;
    const lastClose = db.select({ at: max(integrityChecks.at) }).from(integrityChecks).where(eq(integrityChecks.trigger, "close"));
    const closed = await db.$count(
      positions,
      and(lte(positions.endTime, closedBy), gt(positions.endTime, sql`coalesce((${lastClose}), -1) - ${this.deps.config.voteGraceMs}`)),
    );
    if (closed === 0) return null;
    await this.deps.mixer.mix(); // a closed position's remaining ballots, whatever their number
    return this.run("close");
  }

  /** Runs the check now and records it; one run at a time in this process. */
  run(trigger: IntegrityTrigger): Promise<IntegrityRecord> {
    return this.checks.run(() => this.runNow(trigger));
  }

  private async runNow(trigger: IntegrityTrigger): Promise<IntegrityRecord> {
    const result = await runIntegrityCheck(this.deps.database, this.deps.keys);
    const record: IntegrityRecord = { at: this.deps.clock.now(), trigger, ok: result.ok, problems: result.problems };
    await this.deps.database.writer.submit([
      {
        sql: `INSERT INTO integrity_checks (at, "trigger", ok, problems) VALUES (?, ?, ?, ?)`,
        args: [record.at, trigger, record.ok ? 1 : 0, JSON.stringify(record.problems)],
      },
    ]);
    // The problems name ballot ids and positions, never a voter beside a choice (see the top of this file).
    if (!record.ok) this.deps.log.error({ trigger, problems: record.problems }, "integrity check failed");
    return record;
  }

  /** The latest recorded run, or null before the first. */
  async last(): Promise<IntegrityRecord | null> {
    const [row] = await this.deps.database.db
      .select({ at: integrityChecks.at, trigger: integrityChecks.trigger, ok: integrityChecks.ok, problems: integrityChecks.problems })
      .from(integrityChecks)
      .orderBy(desc(integrityChecks.id))
      .limit(1);
    return row ? { ...row, problems: JSON.parse(row.problems) as string[] } : null;
  }
}
