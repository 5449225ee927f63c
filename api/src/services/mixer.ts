/**
 * The ballot mixer (issue 9): breaks the link a live copy of the database and its WAL would
 * otherwise show between a participation and its ballot.
 *
 * A vote's commit (services/votes.ts) writes the participation and a PENDING ballot: a row
 * with a random id, the position, and the ballot sealed at one fixed length. Nothing in that
 * commit names the choice. The mixer then, every `intervalMs`:
 *   1. reads every pending ballot, unseals it, shuffles the lot;
 *   2. in ONE commit through the writer, for each: inserts the ballot (its own random id,
 *      not the pending row's), deletes the pending row, bumps the tally, each chained on
 *      `changes()` of the one before, so a ballot is applied exactly once even when two
 *      processes mix at the same time or a mix is cut off by a crash;
 *   3. checkpoints the WAL with TRUNCATE, so the commits that lined a batch up with its
 *      participations leave the WAL file within milliseconds (PRAGMA secure_delete, set on
 *      every connection, zeroes the deleted pending rows in the database file).
 *
 * Trade-off (README "Threat model"): a batch is every vote of the last interval. A copy of
 * the WAL taken in the few milliseconds between a mix and its checkpoint ties that batch's
 * ballots to that interval's voters as a set, never one to one unless the batch held one
 * vote. A longer interval gives larger sets but later results; 400 ms keeps a vote in the
 * results within ~1 s (the hub sends at most one update a second) and the WAL short.
 *
 * Crash safety: the pending row commits with the participation (the 201 is sent after that
 * commit), so a SIGKILL at any point leaves it in the database and the next start applies it.
 * Shutdown (`stop`) applies everything still pending.
 */
import { randomInt, randomUUID } from "node:crypto";
import type { InStatement } from "@libsql/client";
import type { Database } from "../db/client.ts";
import { Sealed, type WriteStatement } from "../db/deferred.ts";
import type { Keys } from "../security/keys.ts";
import { CHOICE_RECORD_BYTES, unsealPadded } from "../security/padded-seal.ts";
import { bumpResultsVersionSql } from "./results.ts";
import type { ChoiceKind } from "./votes.ts";

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
   * commits go between the passes: applying a 400 ms backlog of ~900 ballots in one commit
   * held every vote behind it for 60-80 ms (cast-vote p99 105-112 ms); in commits of 250,
   * p99 64-67 ms at the same throughput (bench/README.md). A pass shuffles everything it read
   * and splits it into commits of equal size, so each commit applies a random set drawn from
   * the interval's ballots, never a remainder of one: the secrecy argument is unchanged.
   */
  maxBatch: number;
}

export const MIXER_DEFAULTS: MixerOptions = { intervalMs: 400, immediate: false, maxBatch: 250 };

/** What a pending row seals: kind, candidate id (null for no/abstain), ballot id, cast hour. */
export interface PendingRecord {
  k: ChoiceKind;
  c: string | null;
  b: string;
  h: number;
}

const pendingContext = (pendingId: string) => `pending:${pendingId}`;

/** The statement a vote's commit carries: the sealed pending ballot, only if its participation was inserted. */
export function pendingBallotStatement(keys: Keys, positionId: string, record: PendingRecord): WriteStatement {
  const id = randomUUID();
  return {
    sql: "INSERT INTO pending_ballots (id, position_id, sealed) SELECT ?, ?, ? WHERE changes() = 1",
    // Sealed by the writer, on its thread (db/deferred.ts).
    args: [id, positionId, new Sealed(keys, record, pendingContext(id), CHOICE_RECORD_BYTES)],
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

/** The three chained statements that apply one pending ballot exactly once. */
function applyStatements(pendingId: string, r: PendingRecord): InStatement[] {
  const tally =
    r.k === "candidate"
      ? { sql: "UPDATE candidates SET vote_count = vote_count + 1 WHERE id = ? AND changes() = 1", args: [r.c] }
      : {
          sql: `UPDATE positions SET ${r.k === "no" ? "no_count = no_count" : "abstain_count = abstain_count"} + 1
                 WHERE id = (SELECT position_id FROM ballots WHERE id = ?) AND changes() = 1`,
          args: [r.b],
        };
  return [
    {
      // A candidate deleted meanwhile would break the foreign key and fail the whole batch:
      // such a ballot stays pending (the audit reports it) instead. Deleting a candidate is
      // refused while its position has pending ballots, so this does not happen in practice.
      sql: `INSERT INTO ballots (id, position_id, choice, candidate_id, cast_hour)
            SELECT ?, position_id, ?, ?, ? FROM pending_ballots
             WHERE id = ? AND (? IS NULL OR EXISTS (SELECT 1 FROM candidates WHERE id = ?))`,
      args: [r.b, r.k, r.c, r.h, pendingId, r.c, r.c],
    },
    { sql: "DELETE FROM pending_ballots WHERE id = ? AND changes() = 1", args: [pendingId] },
    tally,
  ];
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
        if (!this.stopped) console.error("ballot mixer:", error);
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

  /** Pending ballots one pass reads: a backlog this large is applied in several passes. */
  private get readLimit(): number {
    return this.options.maxBatch * 40;
  }

  private async passes(): Promise<number> {
    let total = 0;
    for (;;) {
      const { read, applied } = await this.pass();
      total += applied;
      if (read < this.readLimit || applied === 0) break;
    }
    if (total > 0) {
      this.onApplied();
      await this.checkpoint();
    }
    return total;
  }

  private async pass(): Promise<{ read: number; applied: number }> {
    const limit = this.readLimit;
    const rs = await this.database.client.execute({
      sql: "SELECT id, sealed FROM pending_ballots LIMIT ?",
      args: [limit + this.unreadable.size],
    });
    const batch: { id: string; record: PendingRecord }[] = [];
    for (const row of rs.rows) {
      const id = String(row.id);
      if (this.unreadable.has(id) || batch.length === limit) continue;
      try {
        batch.push({ id, record: unsealPadded<PendingRecord>(this.keys, String(row.sealed), pendingContext(id)) });
      } catch {
        // Sealed under another key, or damaged: it stays pending (the audit counts it) and
        // must not hold up every other ballot. Said once per row.
        this.unreadable.add(id);
        console.error(`ballot mixer: pending ballot ${id} cannot be unsealed with this server's key; left pending`);
      }
    }
    if (batch.length === 0) return { read: 0, applied: 0 };
    this.stats.passes++;
    shuffle(batch);
    // Commits of at most maxBatch, all of about the same size: never a small remainder (a
    // commit of one ballot would tie it to its voter). Votes commit in between.
    const commits = Math.ceil(batch.length / this.options.maxBatch);
    let applied = 0;
    for (let k = 0; k < commits; k++) {
      const part = batch.slice(Math.floor((k * batch.length) / commits), Math.floor(((k + 1) * batch.length) / commits));
      const results = await this.database.writer.submit(
        part.flatMap((p) => applyStatements(p.id, p.record)),
        [bumpResultsVersionSql],
      );
      for (let i = 1; i < results.length; i += 3) applied += results[i].rowsAffected;
    }
    this.stats.applied += applied;
    return { read: batch.length, applied };
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

  /** Stops the timer and applies everything still pending (shutdown, tests). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.database.client.closed) await this.mix();
  }
}

/** The mixer serving a database in this process (bound by buildDeps), for castVote's immediate mode. */
const mixers = new WeakMap<Database, Mixer>();
export const bindMixer = (database: Database, mixer: Mixer) => mixers.set(database, mixer);
export const mixerOf = (database: Database): Mixer | undefined => mixers.get(database);
