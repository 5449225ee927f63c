/** The elections an installation has run, and whether one can still change (db/elections.ts says which is current). */
import type { ElectionState } from "@evoting/shared";
import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { CURRENT_ELECTION_SQL } from "../../db/elections.ts";
import { candidates, elections, positions } from "../../db/schema.ts";

export interface ElectionRow {
  id: number;
  title: string;
  subtitle: string;
  startTime: number;
  endTime: number;
  state: ElectionState;
  createdAt: number;
  declaredAt: number | null;
}

/** The newest election (db/elections.ts). */
export async function currentElection(database: Database): Promise<ElectionRow> {
  const [row] = await database.db.select().from(elections).orderBy(desc(elections.id)).limit(1);
  if (!row) throw new Error("elections has no row: was migration 0020 applied?");
  return row;
}

/**
 * Whether a position (or a candidate's position) belongs to an election that can no longer
 * change: a declared one, or one a newer election replaced. An unknown id is not frozen (the
 * route answers its own 404).
 */
export async function positionFrozen(database: Database, ids: { positionId?: string; candidateId?: string }): Promise<boolean> {
  const { db } = database;
  const frozen = sql<number>`${elections.state} <> 'open' OR ${elections.id} <> ${sql.raw(CURRENT_ELECTION_SQL)}`;
  const [row] = ids.positionId
    ? await db.select({ frozen }).from(positions).innerJoin(elections, eq(elections.id, positions.electionId)).where(eq(positions.id, ids.positionId))
    : await db
        .select({ frozen })
        .from(candidates)
        .innerJoin(positions, eq(positions.id, candidates.positionId))
        .innerJoin(elections, eq(elections.id, positions.electionId))
        .where(eq(candidates.id, ids.candidateId ?? ""));
  return Number(row?.frozen ?? 0) === 1;
}
