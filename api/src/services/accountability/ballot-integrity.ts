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
import type { ResultSet } from "@libsql/client";
import { decodeMarks } from "@evoting/shared";
import { and, desc, eq, gt, lte, max, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { integrityChecks, positions } from "../../db/schema.ts";
import type { Clock } from "../../clock.ts";
import type { Keys } from "../../security/keys.ts";
import type { Logger } from "../../log.ts";
import { OneAtATime } from "../../one-at-a-time.ts";
import { ballotMacMatches } from "../votes/ballot-mac.ts";
import { unsealChoice, type ChoiceKind } from "../votes/cast.ts";
import { appliedPendingByPosition, unsealPending, type Mixer } from "../votes/mixer.ts";
import { verifyAuditChain, type AuditChainReport } from "./audit-log.ts";
import { TALLY_READS, tallyReport, type TallyCheckReport } from "./tally-check.ts";
import { ARCHIVE_READS, archiveProblems } from "../election/archive-seal.ts";

export interface BallotMatchReport {
  ok: boolean;
  /** Ballots applied before ballot MACs (migration 0014): checked against their participations only. */
  unsigned: number;
  problems: string[];
}

interface Choice {
  positionId: string;
  kind: ChoiceKind;
  candidateId: string | null;
  /** multi and ranked: the marks, decoded (shared `decodeMarks`), so padding never decides a match; null when they do not decode */
  marks: string[] | null;
}

/** Stored or sealed marks, decoded; null for text that is not the shared encoding (an edited ballot). */
function marksOf(stored: string | null | undefined): string[] | null {
  try {
    return decodeMarks(stored);
  } catch {
    return null;
  }
}

const sameChoice = (a: Choice, b: Choice) =>
  a.positionId === b.positionId &&
  a.kind === b.kind &&
  (a.candidateId ?? null) === (b.candidateId ?? null) &&
  a.marks !== null &&
  b.marks !== null &&
  JSON.stringify(a.marks) === JSON.stringify(b.marks);
const bucketOf = (c: Choice) => JSON.stringify([c.positionId, c.kind, c.candidateId ?? null, c.marks]);
/** Unsealing is CPU work: the event loop gets a turn this often. */
const YIELD_EVERY = 1_000;
const breathe = (i: number) => (i % YIELD_EVERY === YIELD_EVERY - 1 ? new Promise((resolve) => setImmediate(resolve)) : null);

/** What the ballot match reads, in the order `matchBallots` takes them. */
const BALLOT_READS: readonly string[] = [
  "SELECT voter_id, position_id, sealed_choice FROM participations",
  "SELECT id, position_id, sealed FROM pending_ballots",
  "SELECT id, position_id, choice, candidate_id, marks, mac FROM ballots",
  "SELECT id FROM candidates",
];

/** Participations against ballots and pending ballots, one to one, and each ballot's MAC. */
export async function checkBallotMatches(database: Pick<Database, "client">, keys: Keys): Promise<BallotMatchReport> {
  // One read batch: the mixer may commit meanwhile, and a ballot must not be seen both pending
  // and applied, or neither.
  return matchBallots(keys, await database.client.batch([...BALLOT_READS], "read"));
}

/** The match, from the results of `BALLOT_READS`, all read in one snapshot. */
async function matchBallots(keys: Keys, [participations, pending, ballots, candidates]: ResultSet[]): Promise<BallotMatchReport> {
  const problems: string[] = [];
  const candidateIds = new Set(candidates.rows.map((r) => String(r.id)));

  // What each participation says its ballot is. Votes sealed before ballot ids existed (the
  // legacy re-seal) name only a choice: they may match any one ballot of that choice.
  const expected = new Map<string, Choice>();
  const legacy = new Map<string, number>();
  let unreadable = 0;
  for (const [i, r] of participations.rows.entries()) {
    await breathe(i);
    let held;
    try {
      held = unsealChoice(keys, String(r.voter_id), String(r.position_id), String(r.sealed_choice));
    } catch {
      unreadable++;
      continue;
    }
    // A verifiable vote's ballot is on its position's board, which names no voter: the tally
    // check counts those ballots against these participations, position by position.
    if (held.verifiable) continue;
    const choice: Choice = { positionId: held.positionId, kind: held.kind, candidateId: held.candidateId, marks: held.marks };
    if (held.ballotId === null) legacy.set(bucketOf(choice), (legacy.get(bucketOf(choice)) ?? 0) + 1);
    else if (expected.has(held.ballotId)) problems.push(`Ballot ${held.ballotId} is named by more than one participation`);
    else expected.set(held.ballotId, choice);
  }
  if (unreadable > 0) problems.push(`${unreadable} participation${unreadable === 1 ? " does" : "s do"} not unseal with the server key (changed, or sealed under another key)`);

  const matched = new Set<string>();
  let unsigned = 0;
  for (const [i, r] of ballots.rows.entries()) {
    await breathe(i);
    const id = String(r.id);
    const storedMarks = r.marks === null ? null : String(r.marks);
    const ballot: Choice = {
      positionId: String(r.position_id),
      kind: String(r.choice) as ChoiceKind,
      candidateId: r.candidate_id === null ? null : String(r.candidate_id),
      marks: marksOf(storedMarks),
    };
    const mac = r.mac === null ? null : String(r.mac);
    if (mac === null) unsigned++;
    else if (!ballotMacMatches(keys, { id, positionId: ballot.positionId, choice: ballot.kind, candidateId: ballot.candidateId, marks: storedMarks }, mac)) problems.push(`Ballot ${id} (position ${ballot.positionId}) was changed or forged: its MAC does not match`);
    const claim = expected.get(id);
    if (claim) {
      matched.add(id);
      if (!sameChoice(claim, ballot)) problems.push(`Ballot ${id} (position ${ballot.positionId}) does not hold the choice sealed in its participation`);
      continue;
    }
    const left = legacy.get(bucketOf(ballot)) ?? 0;
    if (mac === null && left > 0) legacy.set(bucketOf(ballot), left - 1);
    else problems.push(`Ballot ${id} (position ${ballot.positionId}) has no participation`);
  }

  // A participation's ballot that is not counted must still be waiting for the mixer.
  for (const [i, r] of pending.rows.entries()) {
    await breathe(i);
    const record = unsealPending(keys, String(r.id), String(r.sealed));
    if (!record) {
      problems.push(`Pending ballot ${String(r.id)} does not unseal with the server key`);
      continue;
    }
    if (matched.has(record.b)) continue; // applied; its pending row goes at the end of the pass
    // The mixer leaves such a ballot pending for ever: it would hold up the declaration unseen.
    const named = [...new Set([...(record.c ? [record.c] : []), ...(marksOf(record.r) ?? [])])];
    for (const gone of named.filter((id) => !candidateIds.has(id))) {
      problems.push(`Pending ballot ${String(r.id)} (position ${String(r.position_id)}) names candidate ${gone}, which no longer exists: it can never be counted`);
    }
    const claim = expected.get(record.b);
    if (!claim) problems.push(`Pending ballot ${String(r.id)} (position ${String(r.position_id)}) has no participation`);
    else if (!sameChoice(claim, { positionId: String(r.position_id), kind: record.k, candidateId: record.c, marks: marksOf(record.r) })) {
      problems.push(`Pending ballot ${String(r.id)} (position ${String(r.position_id)}) does not hold the choice sealed in its participation`);
    } else matched.add(record.b);
  }
  for (const [ballotId, claim] of expected) {
    if (!matched.has(ballotId)) problems.push(`Ballot ${ballotId} (position ${claim.positionId}), named by a participation, is neither counted nor pending`);
  }
  for (const [bucket, n] of legacy) {
    if (n > 0) problems.push(`${n} early participation${n === 1 ? "" : "s"} for position ${JSON.parse(bucket)[0]} match no ballot`);
  }
  return { ok: problems.length === 0, unsigned, problems };
}

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
 * in ONE read batch, a consistent snapshot that holds the connection only within that call
 * (never across an await, so the mixer, votes and results reads never meet it), and the
 * applied pending rows are told from the ballots read in it.
 */
export async function runIntegrityCheck(database: Database, keys: Keys): Promise<IntegrityResult> {
  const rs = await database.client.batch([...TALLY_READS, ...BALLOT_READS, ...ARCHIVE_READS], "read");
  const read = rs.slice(TALLY_READS.length, TALLY_READS.length + BALLOT_READS.length);
  const [archives, declarations] = rs.slice(TALLY_READS.length + BALLOT_READS.length);
  const applied = appliedPendingByPosition(keys, read[1].rows, new Set(read[2].rows.map((r) => String(r.id))));
  const tallies = tallyReport(rs, applied);
  const ballots = await matchBallots(keys, read);
  const chain = await verifyAuditChain(database, keys.audit);
  const problems = [...tallyProblems(tallies), ...ballots.problems, ...chainProblems(chain), ...archiveProblems(keys, archives.rows, declarations.rows)];
  return { ok: problems.length === 0, problems, tallies, ballots, chain };
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
