/**
 * What a vote is checked against, kept in memory (a read per vote is a measurable
 * share of its event-loop time; decision 0016): each position's window, eligibility, abstain rule and candidate count,
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
import { marksCapacity, messages, methodBallot, type MethodBallotRules, type PositionMethod, type VoteChoiceFields } from "@evoting/shared";
import type { VoteChoice } from "./cast.ts";
import { eq, sql } from "drizzle-orm";
import type { Clock } from "../../clock.ts";
import type { Database } from "../../db/client.ts";
import { candidates, elections, positions } from "../../db/schema.ts";
import { CATALOG_VERSION, VersionWatch } from "../../db/cache-versions.ts";
import { CURRENT_ELECTION_SQL } from "../../db/elections.ts";
import { parseGroups } from "../election/catalog.ts";

export interface PositionRules extends PositionMethod {
  startTime: number;
  endTime: number;
  eligibleGroups: string[];
  allowAbstain: boolean;
  candidateCount: number;
  /** The position's candidates, for multi and ranked ballots' checks. */
  candidateIds: string[];
  /** Its election is declared or was replaced: no vote counts in it any more. */
  frozen: boolean;
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

  constructor(
    private readonly database: Database,
    clock: Clock,
  ) {
    this.watch = new VersionWatch(database, CATALOG_VERSION, () => this.invalidate(), clock);
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
    const { db } = this.database;
    const [positionRows, candidateRows] = await db.batch([
      db
        .select({
          id: positions.id,
          startTime: positions.startTime,
          endTime: positions.endTime,
          eligibleGroups: positions.eligibleGroups,
          allowAbstain: positions.allowAbstain,
          method: positions.method,
          seats: positions.seats,
          question: positions.question,
          passThreshold: positions.passThreshold,
          frozen: sql<number>`${elections.state} <> 'open' OR ${elections.id} <> ${sql.raw(CURRENT_ELECTION_SQL)}`,
        })
        .from(positions)
        .innerJoin(elections, eq(elections.id, positions.electionId)),
      db.select({ id: candidates.id, name: candidates.name, positionId: candidates.positionId }).from(candidates),
    ]);
    const candidateRefs = new Map<string, CandidateRef>();
    const idsOf = new Map<string, string[]>();
    for (const { id, name, positionId } of candidateRows) {
      candidateRefs.set(id, { name, positionId });
      idsOf.set(positionId, [...(idsOf.get(positionId) ?? []), id]);
    }
    const rules = new Map<string, PositionRules>();
    for (const { id, eligibleGroups, frozen, ...r } of positionRows) {
      rules.set(id, {
        ...r,
        eligibleGroups: parseGroups(eligibleGroups),
        candidateCount: idsOf.get(id)?.length ?? 0,
        candidateIds: idsOf.get(id) ?? [],
        frozen: Number(frozen) === 1,
      });
    }
    const snapshot = { positions: rules, candidates: candidateRefs };
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

  /** Candidates' names from the same snapshot ('' for an unknown id): a multi or ranked vote's answer. */
  async names(ids: readonly string[]): Promise<string[]> {
    const { candidates } = await this.get();
    return ids.map((id) => candidates.get(id)?.name ?? "");
  }
}

/**
 * The ballot a vote body casts on a multi, ranked or referendum position, as castVote takes it,
 * or the 400 message refusing it (shared `methodBallot`); null for a single-choice position,
 * which keeps the baseline's checks (docs/product.md). A single-choice position refuses the other methods' fields.
 */
export function methodVoteChoice(position: MethodBallotRules, body: VoteChoiceFields): VoteChoice | string | null {
  if (position.method === "single") {
    return body.candidateIds !== undefined || body.ranking !== undefined || body.choice === "yes" ? messages.methodNeedsOwnBody : null;
  }
  const ballot = methodBallot(position, body);
  if (typeof ballot === "string") return ballot;
  const capacity = marksCapacity(position.method, position.seats, position.candidateIds);
  if (ballot.kind === "multi" || ballot.kind === "ranked") return { kind: ballot.kind, marks: ballot.marks, capacity };
  // Padded as the position's marked ballots are, so its length never tells an abstention.
  if (ballot.kind === "no" || ballot.kind === "abstain") return position.method === "referendum" ? { kind: ballot.kind } : { kind: ballot.kind, capacity };
  if (ballot.kind === "yes") return { kind: ballot.kind };
  return messages.methodNeedsOwnBody;
}
