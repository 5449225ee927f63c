/**
 * Results snapshots. Tallies live in `candidates.vote_count` (kept in the ballot's own write),
 * so a snapshot costs a handful of small queries whatever the number of ballots. The snapshot
 * is cached against `meta.results_version`, which every vote batch and every admin change
 * bumps. A request reads nothing: the cached snapshot is served until this process changes
 * the results (`changed()`, called by hub.resultsChanged() after every such write) or a
 * second has passed since the counter was last read, so a vote through another process
 * shows within a second as the live stream promises. Recomputes are single-flight.
 */
import type { ElectionSettings, Results } from "@evoting/shared";
import { canViewAdmin, isYesNoBallot, resultsHiddenFrom, sortBreakdown, type Role } from "@evoting/shared";
import type { Database } from "../../db/client.ts";
import { isVoterSql } from "../../db/voters.ts";
import { processClock, type Clock } from "../../clock.ts";
import { max, sql } from "drizzle-orm";
import { bumpResultsVersionSql, positions, RESULTS_VERSION } from "../../db/schema.ts";
import { metaCounter } from "../../db/hot-reads.ts";
import { photoUrl } from "../election/catalog.ts";
import type { ElectionSettingsCache } from "../election/settings.ts";
import { withMethod, type PositionMethodRow } from "./method-results.ts";
import { verifiableTallies } from "../belenios/verifiable.ts";
import { applyVerifiable } from "../belenios/results.ts";
import { CURRENT_ELECTION_SQL, CURRENT_POSITIONS_SQL } from "../../db/elections.ts";

// Defined beside the counter (db/schema.ts), so the writes that move it (a vote, the mixer) need not load this service.
export { bumpResultsVersionSql };

/**
 * A recompute costs O(participations) for the count of distinct voters: hundreds of ms of
 * blocked event loop at 500,000 ballots (decision 0005). Recomputing for every vote batch would then stall
 * the server during voting. So when the last recompute was costly, a snapshot at most
 * ~10 recompute-times old (never more than MAX_STALE_MS) is served meanwhile: results lag
 * votes by about as much as the live stream's coalescing (≤ 1 event/s) already allows.
 * Cheap recomputes (a small election, every test) are always fresh.
 */
const COSTLY_MS = 5;
const MAX_STALE_MS = 3_000;
/** How long a snapshot known to match the counter is served without reading it again. */
const VERIFY_EVERY_MS = 1_000;
/** Each snapshot as JSON text and as its UTF-8 bytes, made once per snapshot rather than once per request. */
const serialised = new WeakMap<Results, { text: string; bytes: Uint8Array }>();

function serialise(results: Results): { text: string; bytes: Uint8Array } {
  let kept = serialised.get(results);
  if (!kept) {
    const text = JSON.stringify(results);
    serialised.set(results, (kept = { text, bytes: Buffer.from(text, "utf8") }));
  }
  return kept;
}

export class ResultsService {
  private cached: { version: number; results: Results; refreshAt: number } | null = null;
  private lastComputeMs = 0;
  private computedAt = 0;
  private computing: Promise<{ version: number; results: Results; refreshAt: number }> | null = null;
  /** Local changes so far, and how many had happened when the cache last matched the counter (and when). */
  private changes = 0;
  private verified = { changes: -1, at: -Infinity };
  private settings: { value: ElectionSettings; lastEnd: number; changes: number; at: number } | null = null;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly electionSettings: ElectionSettingsCache,
    /** A recompute slower than this lets a stale snapshot be served meanwhile (COSTLY_MS). */
    private readonly costlyMs = COSTLY_MS,
    /** The offline grace after a position's end (Config.voteGraceMs): it is closed only after both; a ranked position's full count waits for that. */
    private readonly graceMs = 0,
    /** Measures how old a snapshot or a counter read is (processClock by default); `clock` is business time. */
    private readonly elapsed: Clock = processClock,
  ) {}

  async version(): Promise<number> {
    return metaCounter(this.database, RESULTS_VERSION);
  }

  /** 'after-close' visibility withholds tallies from voters until the window ends and every position has closed. */
  async withheldFromVoters(): Promise<boolean> {
    return this.hiddenFrom(false, this.clock.now());
  }

  private async hiddenFrom(viewerCanSeeAdmin: boolean, now: number): Promise<boolean> {
    const { value, lastEnd } = await this.visibility();
    return resultsHiddenFrom(value, viewerCanSeeAdmin, now, lastEnd + this.graceMs);
  }

  /** A write in this process changed the results: the next request reads the counter. */
  changed(): void {
    this.changes++;
  }

  /**
   * The election settings (results visibility), from memory like the snapshot: a change here
   * calls changed() (routes/admin/election.ts); one elsewhere shows within a second.
   */
  async election(): Promise<ElectionSettings> {
    return (await this.visibility()).value;
  }

  /** The settings and the latest position end (-Infinity with no position), held as above. */
  private async visibility(): Promise<{ value: ElectionSettings; lastEnd: number }> {
    const { changes } = this;
    const at = this.elapsed.now();
    const held = this.settings;
    if (held && held.changes === changes && at - held.at < VERIFY_EVERY_MS) return held;
    const [value, [last]] = await Promise.all([
      this.electionSettings.get(),
      this.database.db.select({ end: max(positions.endTime) }).from(positions).where(sql`${positions.electionId} = ${sql.raw(CURRENT_ELECTION_SQL)}`),
    ]);
    const lastEnd = last?.end ?? -Infinity;
    this.settings = { value, lastEnd, changes, at };
    return this.settings;
  }

  /** The snapshot as JSON text, serialised once per snapshot rather than once per request. */
  async json(): Promise<string> {
    return serialise(await this.get()).text;
  }

  /**
   * The snapshot as UTF-8 JSON bytes, for the results route: written to the socket as they
   * are, where a string would be encoded again for every answer (that encoding and
   * the garbage it left were a quarter of a results request).
   */
  async bytes(): Promise<Uint8Array> {
    return serialise(await this.get()).bytes;
  }

  /**
   * The results answer for a signed-in `role` at `now`: the snapshot's bytes, or null while
   * they are withheld from it (with 'after-close' voters see no tallies until the
   * window ends). The one rule of the results route (routes/vote.ts), however it is served.
   */
  async bytesFor(role: Role, now: number): Promise<Uint8Array | null> {
    if (await this.hiddenFrom(canViewAdmin(role), now)) return null;
    return this.bytes();
  }

  async get(): Promise<Results> {
    const { changes } = this;
    const readAt = this.elapsed.now();
    // A ranked position that closed since shows its full count: no write marks that moment.
    const due = this.cached !== null && this.clock.now() >= this.cached.refreshAt;
    if (this.cached && !due && this.verified.changes === changes && readAt - this.verified.at < VERIFY_EVERY_MS) return this.cached.results;
    const version = await this.version();
    if (this.cached && this.cached.version === version && !due) {
      this.verified = { changes, at: readAt };
      return this.cached.results;
    }
    if (this.cached && this.lastComputeMs > this.costlyMs && !due) {
      const staleFor = this.elapsed.now() - this.computedAt;
      if (staleFor < Math.min(MAX_STALE_MS, this.lastComputeMs * 10)) return this.cached.results;
    }
    if (!this.computing) {
      this.computing = this.compute().finally(() => (this.computing = null));
    }
    const fresh = await this.computing;
    // A recompute that started before our read may predate it; one more round settles it.
    if (fresh.version < version) return this.get();
    if (this.cached === fresh) this.verified = { changes, at: readAt };
    return fresh.results;
  }

  /**
   * A snapshot at least as new as the counter is now, however long it takes (a declaration
   * archives it: a stale one served meanwhile would not do).
   */
  async current(): Promise<Results> {
    const version = await this.version();
    for (;;) {
      this.computing ??= this.compute().finally(() => (this.computing = null));
      const fresh = await this.computing;
      if (fresh.version >= version) return fresh.results;
    }
  }

  private async compute(): Promise<{ version: number; results: Results; refreshAt: number }> {
    const started = this.elapsed.now();
    const client = this.database.client;
    // One read batch: a consistent view of counter, voters, participation and tallies. SQL:
    // the results path (p99 < 10 ms at 500,000 ballots, bench/), with json_each for turnout.
    const [v, voters, voted, rows, eligible, settings, pending, state] = await client.batch(
      [
        `SELECT value FROM meta WHERE key = '${RESULTS_VERSION}'`,
        `SELECT count(*) AS n FROM users WHERE ${isVoterSql()}`,
        `SELECT count(DISTINCT voter_id) AS n FROM participations WHERE position_id IN ${CURRENT_POSITIONS_SQL}`,
        `SELECT p.id AS position_id, p.title AS position_title, p.no_count, p.abstain_count,
                p.method, p.seats, p.question, p.pass_threshold, p.yes_count, p.multi_count, p.end_time, p.live_count,
                c.id AS candidate_id, c.name, c.photo_id, c.vote_count
           FROM positions p LEFT JOIN candidates c ON c.position_id = p.id
          WHERE p.election_id = ${CURRENT_ELECTION_SQL}
           ORDER BY p.start_time, p.created_at, p.title, c.name`,
        // A position limited to groups has its own base for turnout: its eligible voters.
        `SELECT p.id AS position_id,
                (SELECT count(*) FROM users u WHERE ${isVoterSql("u")} AND EXISTS (
                   SELECT 1 FROM json_each(u.groups) g, json_each(p.eligible_groups) e
                    WHERE lower(trim(g.value)) = lower(trim(e.value)))) AS n
           FROM positions p WHERE p.eligible_groups <> '[]' AND p.election_id = ${CURRENT_ELECTION_SQL}`,
        // Whether a lone candidate is decided by Yes/No (off by default, docs/product.md), and the batch.
        "SELECT unopposed, ballot_batch FROM election_settings WHERE id = 1",
        // Ballots not yet in the tallies: a count of votes cast, which turnout shows anyway.
        "SELECT position_id, count(*) AS n FROM pending_ballots GROUP BY position_id",
        // Provisional until the declaration, which moves the results version.
        `SELECT state FROM elections WHERE id = ${CURRENT_ELECTION_SQL}`,
      ],
      "read",
    );
    const byPosition = new Map<string, Results["results"][number]>();
    const methodOf = new Map<string, PositionMethodRow>();
    for (const r of rows.rows) {
      const id = String(r.position_id);
      let entry = byPosition.get(id);
      if (!entry) {
        methodOf.set(id, {
          method: String(r.method) as PositionMethodRow["method"],
          seats: Number(r.seats),
          question: r.question === null ? null : String(r.question),
          passThreshold: Number(r.pass_threshold),
          yes: Number(r.yes_count),
          multiBallots: Number(r.multi_count),
          endTime: Number(r.end_time),
          liveCount: Number(r.live_count) === 1,
        });
        // 'No' and abstentions are ballots too: the position is done for those voters.
        const noVotes = Number(r.no_count ?? 0);
        const abstentions = Number(r.abstain_count ?? 0);
        entry = { positionId: id, positionTitle: String(r.position_title), totalVotes: noVotes + abstentions, breakdown: [], noVotes, abstentions };
        byPosition.set(id, entry);
      }
      if (r.candidate_id !== null) {
        const votes = Number(r.vote_count);
        entry.totalVotes += votes;
        entry.breakdown.push({
          candidateId: String(r.candidate_id),
          name: String(r.name),
          photo: photoUrl(r.photo_id === null ? null : String(r.photo_id)),
          votes,
        });
      }
    }
    // Verifiable positions: their ballots are in their boxes, their counts only in the Result.
    const verifiable = await verifiableTallies(this.database);
    for (const [id, v] of verifiable) {
      const entry = byPosition.get(id);
      const method = methodOf.get(id);
      if (!entry || !method) continue;
      const applied = applyVerifiable(entry, method, v);
      byPosition.set(id, applied.entry);
      methodOf.set(id, applied.method);
    }
    const unopposed = settings.rows[0]?.unopposed === "yes-no" ? "yes-no" : "single";
    const ballotBatch = Number(settings.rows[0]?.ballot_batch ?? 1);
    const waitingBy = new Map(pending.rows.map((r) => [String(r.position_id), Number(r.n)]));
    const totalRegisteredVoters = Number(voters.rows[0]?.n ?? 0);
    const eligibleBy = new Map(eligible.rows.map((r) => [String(r.position_id), Number(r.n)]));
    for (const entry of byPosition.values()) entry.eligibleVoters = eligibleBy.get(entry.positionId) ?? totalRegisteredVoters;
    const now = this.clock.now();
    let refreshAt = Infinity;
    const entries = await Promise.all(
      [...byPosition.values()].map(async (p) => {
        const method = methodOf.get(p.positionId)!;
        const closesAt = method.endTime + this.graceMs;
        if (method.method === "ranked" && now < closesAt) refreshAt = Math.min(refreshAt, closesAt);
        const entry = method.method === "single" && isYesNoBallot(p.breakdown.length, unopposed) ? { ...p, yesNo: true } : p;
        const pending = waitingBy.get(p.positionId) ?? 0;
        // A closed position's full count waits for its last ballots: the mixer applies them just
        // after the close, and its write brings the count. Counted before, it would name winners
        // from part of the ballots.
        const counted = !entry.belenios || entry.belenios.verified;
        const decided = await withMethod(this.database, entry, method, now >= closesAt && pending === 0 && counted);
        const waiting = ballotBatch > 1 ? pending : 0;
        return { ...decided, breakdown: sortBreakdown(decided.breakdown), ...(waiting > 0 ? { waiting } : {}) };
      }),
    );
    const results: Results = {
      totalRegisteredVoters,
      totalVotesCast: Number(voted.rows[0]?.n ?? 0),
      results: entries,
      generatedAt: new Date(now).toISOString(),
      ...(ballotBatch > 1 ? { ballotBatch } : {}),
      provisional: state.rows[0]?.state !== "declared",
    };
    const snapshot = { version: Number(v.rows[0]?.value ?? 0), results, refreshAt };
    if (!this.cached || snapshot.version >= this.cached.version) this.cached = snapshot;
    this.computedAt = this.elapsed.now();
    this.lastComputeMs = this.computedAt - started;
    return snapshot;
  }
}

