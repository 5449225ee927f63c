/**
 * What a vote is checked against, kept in memory (one read per vote was 7% of its
 * event-loop time): each position's window, eligibility, abstain rule and candidate count,
 * and each candidate's name and position. An election has tens of rows; all are loaded at
 * once, on the first vote after any change.
 *
 * Changes take effect as they do for sessions (services/auth/sessions.ts):
 * - in this process at once: every write that adds, deletes or changes a position or a
 *   candidate (other than a tally) calls `ballotRules.invalidate()` after its commit, before
 *   the admin is answered, so an admin's edit is never followed by a vote checked against the
 *   old rule;
 * - from another process within a second, through `meta.catalog_version` (db/cache-versions.ts).
 */
import type { Database } from "../../db/client.ts";
import { CATALOG_VERSION, VersionWatch } from "../../db/cache-versions.ts";
import { parseGroups } from "../election/catalog.ts";

export interface PositionRules {
  startTime: number;
  endTime: number;
  eligibleGroups: string[];
  allowAbstain: boolean;
  candidateCount: number;
}

export interface CandidateRef {
  name: string;
  positionId: string;
}

interface Snapshot {
  positions: Map<string, PositionRules>;
  candidates: Map<string, CandidateRef>;
}

/** The ballot rules of one database (`Deps.ballotRules`). */
export class BallotRules {
  private snapshot: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;
  /** Moves whenever the cache is emptied: a load that started before does not store. */
  private generation = 0;
  private readonly watch: VersionWatch;

  constructor(private readonly database: Database) {
    this.watch = new VersionWatch(database, CATALOG_VERSION, () => this.invalidate());
  }

  /** Forgets the rules: called after any write to positions or candidates other than a tally. */
  invalidate(): void {
    this.snapshot = null;
    this.loading = null;
    this.generation++;
  }

  private async get(): Promise<Snapshot> {
    await this.watch.check();
    if (this.snapshot) return this.snapshot;
    return (this.loading ??= this.load());
  }

  private async load(): Promise<Snapshot> {
    const generation = this.generation;
    const [positionRows, candidateRows] = await Promise.all([
      this.database.client.execute("SELECT id, start_time, end_time, eligible_groups, allow_abstain FROM positions"),
      this.database.client.execute("SELECT id, name, position_id FROM candidates"),
    ]);
    const candidates = new Map<string, CandidateRef>();
    const counts = new Map<string, number>();
    for (const r of candidateRows.rows) {
      const positionId = String(r.position_id);
      candidates.set(String(r.id), { name: String(r.name), positionId });
      counts.set(positionId, (counts.get(positionId) ?? 0) + 1);
    }
    const positions = new Map<string, PositionRules>();
    for (const r of positionRows.rows) {
      const id = String(r.id);
      positions.set(id, {
        startTime: Number(r.start_time),
        endTime: Number(r.end_time),
        eligibleGroups: parseGroups(String(r.eligible_groups)),
        allowAbstain: Number(r.allow_abstain) === 1,
        candidateCount: counts.get(id) ?? 0,
      });
    }
    const snapshot = { positions, candidates };
    if (generation === this.generation) {
      this.snapshot = snapshot;
      this.loading = null;
    }
    return snapshot;
  }

  /**
   * What casting a vote needs to know: the position's window and ballot rules (undefined: no
   * such position) and the candidate's name and position (undefined: no such candidate, in
   * any position).
   */
  async find(positionId: string, candidateId: string): Promise<{ position: PositionRules | undefined; candidate: CandidateRef | undefined }> {
    const { positions, candidates } = await this.get();
    const position = positions.get(positionId);
    return { position, candidate: position ? candidates.get(candidateId) : undefined };
  }
}
