/** The elections an installation has run, and whether one can still change (db/elections.ts says which is current). */
import type { ElectionState } from "@evoting/shared";
import type { Database } from "../../db/client.ts";
import { CURRENT_ELECTION_SQL } from "../../db/elections.ts";

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

export function toElectionRow(r: Record<string, unknown>): ElectionRow {
  return {
    id: Number(r.id),
    title: String(r.title),
    subtitle: String(r.subtitle),
    startTime: Number(r.start_time),
    endTime: Number(r.end_time),
    state: String(r.state) as ElectionState,
    createdAt: Number(r.created_at),
    declaredAt: r.declared_at === null || r.declared_at === undefined ? null : Number(r.declared_at),
  };
}

export async function currentElection(database: Database): Promise<ElectionRow> {
  const row = await database.get(`SELECT * FROM elections WHERE id = ${CURRENT_ELECTION_SQL}`);
  if (!row) throw new Error("elections has no row: was migration 0020 applied?");
  return toElectionRow(row);
}

/**
 * Whether a position (or a candidate's position) belongs to an election that can no longer
 * change: a declared one, or one a newer election replaced. An unknown id is not frozen (the
 * route answers its own 404).
 */
export async function positionFrozen(database: Database, ids: { positionId?: string; candidateId?: string }): Promise<boolean> {
  const state = `SELECT e.state <> 'open' OR e.id <> ${CURRENT_ELECTION_SQL} AS frozen`;
  const row = ids.positionId
    ? await database.get(`${state} FROM positions p JOIN elections e ON e.id = p.election_id WHERE p.id = ?`, [ids.positionId])
    : await database.get(`${state} FROM candidates c JOIN positions p ON p.id = c.position_id JOIN elections e ON e.id = p.election_id WHERE c.id = ?`, [
        ids.candidateId ?? "",
      ]);
  return Number(row?.frozen ?? 0) === 1;
}
