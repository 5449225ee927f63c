/**
 * The ballot mixer: breaks the link a live copy of the database and its WAL would
 * otherwise show between a participation and its ballot.
 *
 * A vote's commit (services/votes/cast.ts) writes the participation and a PENDING ballot: a row
 * with a random id, the position, and the ballot sealed at one fixed length. Nothing in that
 * commit names the choice. The mixer then, every `intervalMs`:
 *   1. reads every pending ballot and shuffles the lot (still sealed);
 *   2. unseals them and, in commits through the writer, set-based, one statement each inserts the ballots
 *      (their own random ids, not the pending rows') and bumps the tallies, skipping a
 *      ballot whose id exists already, so a ballot is applied exactly once even when two
 *      processes mix at the same time or a crash cuts a pass off;
 *   3. deletes every pending row it applied in one last commit, so no single mix commit
 *      names the pending rows (and through them the votes) its ballots came from;
 *   4. checkpoints the WAL with TRUNCATE, so the commits that lined the pass up with its
 *      participations leave the WAL file within milliseconds (PRAGMA secure_delete, set on
 *      every connection, zeroes the deleted pending rows in the database file).
 *
 * A position's ballots are applied only once at least the election's ballot batch of them wait
 * (10 by default; its remainder at its close), so a tally never moves by fewer (docs/security.md,
 * "Insiders"). A copy of the WAL taken in the few milliseconds between a pass and its
 * checkpoint ties that pass's ballots to their voters as a set, never one to one. 400 ms keeps
 * a full group in the results within ~1 s (the hub sends at most one update a second) and the
 * WAL short.
 *
 * Crash safety: the pending row commits with the participation (the 201 is sent after that
 * commit), so a SIGKILL at any point leaves it in the database and the next start applies it,
 * or, when its ballot went in before the kill, only deletes it.
 * Shutdown (`stop`) applies every group that is due; the rest waits in the database for the next start.
 */
import { randomBytes, randomInt } from "node:crypto";
import type { BallotKind } from "@evoting/shared";
import { count, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { bumpResultsVersionSql, electionSettings, pendingBallots, positions } from "../../db/schema.ts";
import type { WriteStatement } from "../../db/writer.ts";
import { silentLogger, type Logger } from "../../log.ts";
import type { Keys } from "../../security/keys.ts";
import { CHOICE_RECORD_BYTES, sealPadded, unsealPadded } from "../../security/padded-seal.ts";

export interface MixerOptions {
  /** How often pending ballots are applied (and the WAL truncated). */
  intervalMs: number;
  /**
   * Apply each vote's ballot before its answer (tests): a batch is then whatever one commit
   * held. Never in production: it gives up the batching that hides who cast which ballot.
   */
  immediate: boolean;
  /**
   * Most pending ballots applied per commit (a larger backlog takes several passes). Votes'
   * commits go between the mixer's, so one large commit holds every vote behind it until it
   * ends. A commit's cost follows its ballots (its statements are
   * set-based and it deletes no pending rows), and commits of 50 gave the lowest cast-vote
   * p99 (decision 0017). A pass shuffles
   * everything it read and splits it into commits of equal size, so each commit applies a
   * random set drawn from the interval's ballots, never a remainder of one; and the pass
   * deletes the pending rows together at its end, so a ballot's anonymity set is every
   * ballot the pass read, whatever the commit size.
   */
  maxBatch: number;
  /** The clock a position's close is judged by (its end plus `graceMs`). */
  now: () => number;
  /** The offline grace after a position's end: its remaining ballots are applied once both have passed. */
  graceMs: number;
}

export const MIXER_DEFAULTS: MixerOptions = { intervalMs: 400, immediate: false, maxBatch: 50, now: Date.now, graceMs: 0 };

/**
 * What a pending row seals: kind, tallied candidate id (null for no/abstain/yes/multi), ballot
 * id, the ballot's MAC (./ballot-mac.ts; absent from rows sealed before it) and, for multi and
 * ranked ballots, their marks. Rows sealed before migration 0013 also hold the hour, which is
 * no longer stored.
 */
export interface PendingRecord {
  k: BallotKind;
  c: string | null;
  b: string;
  m?: string;
  /** multi and ranked: the marks (shared `encodeMarks`), already padded to the position's capacity */
  r?: string | null;
}

const PENDING_PREFIX = "pending:";
const pendingContext = (pendingId: string) => PENDING_PREFIX + pendingId;

/**
 * Pending ids follow arrival within a process: a random prefix per process, then a counter.
 * So a commit's pending rows go to the end of one B-tree page, not
 * one random page each (3-14% more votes/s, alternating). The order says nothing about a
 * choice: a pending row is sealed, names no voter, and is deleted (secure_delete) when the
 * mixer applies it to a ballot with its own random id.
 */
const PENDING_ID_PREFIX = randomBytes(6).toString("hex");
let pendingSequence = 0;
const nextPendingId = () => PENDING_ID_PREFIX + (pendingSequence++).toString(36).padStart(11, "0");

/** The statement a vote's commit carries: the sealed pending ballot, only if its participation was inserted. */
export function pendingBallotStatement(keys: Keys, positionId: string, record: PendingRecord, size = CHOICE_RECORD_BYTES): WriteStatement {
  const id = nextPendingId();
  return {
    sql: "INSERT INTO pending_ballots (id, position_id, sealed) SELECT ?, ?, ? WHERE changes() = 1",
    args: [id, positionId, sealPadded(keys, record, pendingContext(id), size)],
  };
}

/** Fisher-Yates with a cryptographic source: the order in the commit says nothing either. */
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** A pending row's record, or null when it does not unseal (another key, damaged). */
export function unsealPending(keys: Pick<Keys, "seal">, id: string, sealed: string): PendingRecord | null {
  try {
    return unsealPadded<PendingRecord>(keys as Keys, sealed, pendingContext(id));
  } catch {
    return null;
  }
}

/**
 * A pending ballot, unsealed, as one row of a mix commit's JSON argument: [pending id, kind,
 * candidate, ballot id, MAC, marks]. Its place in the argument is the order it is inserted in.
 */
type MixRow = [id: string, kind: BallotKind, candidateId: string | null, ballotId: string, mac: string | null, marks: string | null];

/**
 * A mix commit's ballots, unsealed, in a
 * table of this connection's own that lives in memory (`temp_store`, db/direct.ts) and is
 * emptied before the commit ends: it never reaches the database file or the WAL.
 */
const MIX_TABLE = `CREATE TEMP TABLE IF NOT EXISTS mix_batch (
  pending_id TEXT PRIMARY KEY, kind TEXT NOT NULL, candidate_id TEXT, ballot_id TEXT NOT NULL, mac TEXT,
  slot INTEGER NOT NULL, position_id TEXT, marks TEXT
) WITHOUT ROWID`;

/**
 * A ballot whose candidate was deleted meanwhile stays pending (the audit reports it) rather
 * than break the foreign key. Deleting a candidate is refused while its position has pending
 * ballots, so this does not happen in practice.
 */
const APPLICABLE = "(candidate_id IS NULL OR EXISTS (SELECT 1 FROM candidates c WHERE c.id = mix_batch.candidate_id))";

/** Where each statement's answer is in a commit's results. */
const DONE_AT = 4;
const APPLIED_AT = 8;

/**
 * One commit's statements, set-based: each statement handles the whole batch, so a commit of
 * 50 ballots is 10 statements, not 150.
 *
 * A commit inserts ballots and raises tallies; it leaves the pending rows alone. The pass
 * deletes every pending row it applied in one commit at its end (`Mixer.pass`), so a copy of
 * the WAL never shows which pending rows (and through them, which votes' commits) one mix
 * commit's ballots came from: only the whole pass's (before, each
 * commit deleted its own 100, tying its ballots to those voters as a set). Exactly once
 * holds without the delete: a ballot carries the random id its vote gave it, so a pending row
 * whose ballot already exists was applied by an earlier commit (of a pass a crash cut off,
 * or of another process) and is only marked done, never counted twice. A pending row already
 * deleted was finished by another process; one whose candidate is gone stays pending.
 */
function applyStatements(part: readonly MixRow[]): WriteStatement[] {
  return [
    MIX_TABLE,
    {
      // `slot` is the row's place in the shuffled part: the ballots go in in that order, not
      // in this table's key order (the pending ids follow arrival), so a page of the ballots
      // table orders a group's ballots at random, never by when they were cast.
      sql: `INSERT INTO temp.mix_batch (pending_id, kind, candidate_id, ballot_id, mac, marks, slot)
            SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, key FROM json_each(?)`,
      args: [JSON.stringify(part)],
    },
    "UPDATE temp.mix_batch SET position_id = (SELECT p.position_id FROM pending_ballots p WHERE p.id = mix_batch.pending_id)",
    `DELETE FROM temp.mix_batch WHERE position_id IS NULL OR NOT ${APPLICABLE}`,
    // Done once this commit is: the pass deletes these pending rows at its end.
    "SELECT pending_id FROM temp.mix_batch",
    "DELETE FROM temp.mix_batch WHERE EXISTS (SELECT 1 FROM ballots b WHERE b.id = mix_batch.ballot_id)",
    // The tallies shared `talliedCandidates` describes: the tallied candidate (a single choice,
    // a ranking's first preference) and each mark of a multi ballot.
    `UPDATE candidates SET vote_count = vote_count + mix.n
       FROM (SELECT id, count(*) AS n FROM (
               SELECT candidate_id AS id FROM temp.mix_batch WHERE kind IN ('candidate', 'ranked')
               UNION ALL SELECT m.value FROM temp.mix_batch, json_each(mix_batch.marks) m WHERE kind = 'multi')
             GROUP BY id) AS mix
      WHERE candidates.id = mix.id`,
    `UPDATE positions SET no_count = no_count + mix.no, abstain_count = abstain_count + mix.abstain, yes_count = yes_count + mix.yes,
            multi_count = multi_count + mix.multi
       FROM (SELECT position_id AS id, sum(kind = 'no') AS no, sum(kind = 'abstain') AS abstain, sum(kind = 'yes') AS yes,
                    sum(kind = 'multi') AS multi FROM temp.mix_batch
              WHERE kind IN ('no', 'abstain', 'yes', 'multi') GROUP BY position_id) AS mix
      WHERE positions.id = mix.id`,
    `INSERT INTO ballots (id, position_id, choice, candidate_id, mac, marks)
     SELECT ballot_id, position_id, kind, candidate_id, mac, marks FROM temp.mix_batch ORDER BY slot`,
    "DELETE FROM temp.mix_batch",
  ];
}

/** The pass's last commit: every pending row it applied (or found applied), in one delete. */
const deleteDoneStatement = (ids: readonly string[]): WriteStatement => ({
  sql: "DELETE FROM pending_ballots WHERE id IN (SELECT value FROM json_each(?))",
  args: [JSON.stringify(ids)],
});

/**
 * Pending rows whose ballot exists already, per position: applied by a pass that a crash cut
 * off before its last commit (the next pass deletes them), or by one still running. The audit
 * counts them as applied, not pending. Needs the key: nothing else ties a pending row to its
 * ballot. Rows that do not unseal with it are left out (they count as pending). `applied`
 * holds the ids of ballots read in the same snapshot as `pending`.
 */
export function appliedPendingByPosition(keys: Pick<Keys, "seal">, pending: readonly Record<string, unknown>[], applied: ReadonlySet<string>): Map<string, number> {
  const byPosition = new Map<string, number>();
  for (const row of pending) {
    const record = unsealPending(keys, String(row.id), String(row.sealed));
    if (!record || !applied.has(record.b)) continue;
    const position = String(row.position_id);
    byPosition.set(position, (byPosition.get(position) ?? 0) + 1);
  }
  return byPosition;
}

export class Mixer {
  private readonly options: MixerOptions;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private again: Promise<number> | null = null;
  private stopped = false;
  /** Pending rows this key cannot unseal: skipped, not retried. */
  private readonly unreadable = new Set<string>();
  /** Passes, ballots applied, checkpoints that truncated the WAL: for benchmarks and tests. */
  readonly stats = { passes: 0, applied: 0, checkpoints: 0 };

  constructor(
    private readonly database: Database,
    private readonly keys: Keys,
    private readonly onApplied: () => void,
    options: Partial<MixerOptions> = {},
    private readonly log: Logger = silentLogger,
  ) {
    this.options = { ...MIXER_DEFAULTS, ...options };
  }

  get immediate(): boolean {
    return this.options.immediate;
  }

  /** Starts the timer; the first pass also applies whatever a crash left pending. */
  start(): this {
    if (this.timer || this.stopped) return this;
    this.timer = setInterval(() => {
      // A database closed under a timer (a test that never stopped this mixer): nothing to do.
      if (this.database.client.closed) return void this.stop().catch(() => {});
      this.mix().catch((error) => {
        if (!this.stopped) this.log.error({ err: error }, "ballot mixer: a pass failed");
      });
    }, this.options.intervalMs);
    this.timer.unref();
    return this;
  }

  /**
   * Applies every ballot pending when the pass starts, then truncates the WAL. A call while a
   * pass runs is served by one more pass after it (so a vote committed meanwhile is covered).
   */
  mix(): Promise<number> {
    if (!this.running) {
      this.running = this.passes().finally(() => (this.running = null));
      return this.running;
    }
    this.again ??= this.running.then(
      () => this.next(),
      () => this.next(),
    );
    return this.again;
  }

  private next(): Promise<number> {
    this.again = null;
    return this.mix();
  }

  private async passes(): Promise<number> {
    const total = await this.pass();
    if (total > 0) {
      this.onApplied();
      await this.checkpoint();
    }
    return total;
  }

  /**
   * The positions whose pending ballots are due: those holding at least the election's
   * `ballot_batch` of them, and every closed one (its end plus the grace passed), whatever it
   * holds, so a closed position's tallies are final. The others wait: applying fewer would
   * move a tally by less than a group, and whoever watches who voted beside the tallies (an
   * observer, a station officer) could tie those few voters to their choices.
   */
  private async duePositions(): Promise<{ due: Set<string>; batch: number }> {
    const { db } = this.database;
    const [waiting, settings] = await db.batch([
      db
        .select({ positionId: pendingBallots.positionId, n: count(), endTime: positions.endTime })
        .from(pendingBallots)
        .innerJoin(positions, eq(positions.id, pendingBallots.positionId))
        .groupBy(pendingBallots.positionId),
      db.select({ ballotBatch: electionSettings.ballotBatch }).from(electionSettings).where(eq(electionSettings.id, 1)),
    ]);
    const batch = Math.max(1, settings[0]?.ballotBatch ?? 1);
    const closedBefore = this.options.now() - this.options.graceMs;
    const due = new Set<string>();
    for (const r of waiting) {
      if (r.n >= batch || r.endTime <= closedBefore) due.add(r.positionId);
    }
    return { due, batch };
  }

  private async pass(): Promise<number> {
    const { due, batch } = await this.duePositions();
    if (due.size === 0) return 0;
    const rows = await this.database.db
      .select({ id: pendingBallots.id, positionId: pendingBallots.positionId, sealed: pendingBallots.sealed })
      .from(pendingBallots)
      .where(inArray(pendingBallots.positionId, [...due]));
    // Each due position's ballots, all of them: a commit applies a position's ballots only in
    // parts of at least the batch (a commit between would show its tally moved by less).
    const groups = new Map<string, [string, string][]>();
    let read = 0;
    for (const { id, positionId, sealed } of rows) {
      if (this.unreadable.has(id)) continue;
      let group = groups.get(positionId);
      if (!group) groups.set(positionId, (group = []));
      group.push([id, sealed]);
      read++;
    }
    if (read === 0) return 0;
    this.stats.passes++;
    // Each group shuffled and split into parts of about maxBatch, all of about equal size and
    // none smaller than the batch (never a remainder of one); parts of several positions share a
    // commit while they fit. Where a ballot lands, and in what order it is inserted, depends on
    // nothing it holds.
    const commits: [string, string][][] = [];
    let current: [string, string][] = [];
    for (const group of shuffle([...groups.values()])) {
      shuffle(group);
      const parts = Math.max(1, Math.min(Math.ceil(group.length / this.options.maxBatch), Math.floor(group.length / batch)));
      for (let k = 0; k < parts; k++) {
        const part = group.slice(Math.floor((k * group.length) / parts), Math.floor(((k + 1) * group.length) / parts));
        if (current.length > 0 && current.length + part.length > this.options.maxBatch) {
          commits.push(current);
          current = [];
        }
        current.push(...part);
      }
    }
    if (current.length > 0) commits.push(current);
    let applied = 0;
    const done: string[] = [];
    for (const part of commits) {
      // What this key cannot unseal (sealed under another key, or damaged) stays pending (the
      // check counts it) and must not hold up every other ballot: skipped from now on.
      const rows: MixRow[] = [];
      for (const [id, sealed] of shuffle(part)) {
        const record = unsealPending(this.keys, id, sealed);
        if (record) rows.push([id, record.k, record.c, record.b, record.m ?? null, record.r ?? null]);
        else {
          this.unreadable.add(id);
          this.log.error({ pendingId: id }, "ballot mixer: a pending ballot cannot be unsealed with this server's key; left pending");
        }
      }
      if (rows.length === 0) continue;
      const results = await this.database.writer.submit(applyStatements(rows), { last: [bumpResultsVersionSql] });
      applied += results[APPLIED_AT].rowsAffected;
      for (const row of results[DONE_AT].rows) done.push(String(row.pending_id));
    }
    // Cut off before this (a crash), the rows stay: the next pass finds their ballots and deletes them.
    // It moves the results version too: a snapshot read between the two commits counted these
    // ballots as applied and still waiting, and a closed ranked position's full count waits
    // for that waiting count to reach 0.
    if (done.length > 0) await this.database.writer.submit([deleteDoneStatement(done)], { last: [bumpResultsVersionSql] });
    this.stats.applied += applied;
    return applied;
  }

  /**
   * Copies the WAL into the database and truncates it to zero bytes, on the writer's own
   * connection (its thread), never blocking the event loop. Refused (busy) while a reader
   * still needs old frames; the next pass tries again.
   */
  async checkpoint(): Promise<boolean> {
    const done = await this.database.writer.checkpoint();
    if (done) this.stats.checkpoints++;
    return done;
  }

  /**
   * Stops the timer after one last pass (shutdown, tests). Ballots not due stay pending in the
   * database and the next start applies them: a shutdown never applies a group below the batch.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.database.client.closed) await this.mix();
  }
}
