/** Positions and candidates as the baseline's client reads them (docs/product.md) (`_id`, flattened position fields). */
import { asc, eq, sql } from "drizzle-orm";
import { DEFAULT_PASS_THRESHOLD, type Candidate, type Position } from "@evoting/shared";
import type { Database, Db } from "../../db/client.ts";
import { candidates, positions } from "../../db/schema.ts";
import { CURRENT_ELECTION_SQL } from "../../db/elections.ts";
import { userGroups } from "../../db/hot-reads.ts";

export const photoUrl = (photoId: string | null): string | null => (photoId ? `/api/photos/${photoId}` : null);

type PositionRow = typeof positions.$inferSelect;
type CandidateRow = typeof candidates.$inferSelect;

function toCandidate(c: CandidateRow, p: Pick<PositionRow, "id" | "title">): Candidate {
  return {
    _id: c.id,
    name: c.name,
    photo: photoUrl(c.photoId),
    position: { _id: p.id, title: p.title },
    positionId: p.id,
    positionTitle: p.title,
    manifesto: c.manifesto ?? null,
  };
}

/** A stored JSON list of group labels (written only by this API, with JSON.stringify). */
export function parseGroups(json: string | null | undefined): string[] {
  try {
    const value: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(value) ? value.filter((g): g is string => typeof g === "string") : [];
  } catch {
    return [];
  }
}

type PositionFields = Pick<PositionRow, "id" | "title" | "startTime" | "endTime"> &
  Partial<Pick<PositionRow, "eligibleGroups" | "allowAbstain" | "method" | "seats" | "question" | "passThreshold" | "liveCount">>;

export function toPosition(p: PositionFields, cands: Candidate[] = []): Position {
  return {
    _id: p.id,
    title: p.title,
    startTime: new Date(p.startTime).toISOString(),
    endTime: new Date(p.endTime).toISOString(),
    candidates: cands,
    eligibleGroups: parseGroups(p.eligibleGroups),
    allowAbstain: Boolean(p.allowAbstain),
    method: p.method ?? "single",
    seats: p.seats ?? 1,
    question: p.question ?? null,
    passThreshold: p.passThreshold ?? DEFAULT_PASS_THRESHOLD,
    liveCount: Boolean(p.liveCount),
  };
}

/** The method in an audit summary; nothing for the baseline's single choice. */
export function describeMethod(p: Pick<PositionRow, "method" | "seats" | "question" | "passThreshold" | "liveCount">): string {
  if (p.method === "single") return "";
  if (p.method === "referendum") return `, referendum "${p.question}" passing above ${p.passThreshold}`;
  const live = p.liveCount ? ", full count shown live" : "";
  return `, ${p.method === "multi" ? "several seats" : "ranked"} (${p.seats} seat${p.seats === 1 ? "" : "s"})${live}`;
}

const inCurrentElection = sql`${positions.electionId} = ${sql.raw(CURRENT_ELECTION_SQL)}`;

/**
 * Every position (by start time, then creation order) with its candidates in creation order:
 * the 'fixed' ballot order ('random' reorders per voter in the vote routes). Two
 * queries, no N+1.
 */
export async function listPositions(db: Db): Promise<Position[]> {
  const [posRows, candRows] = await Promise.all([
    db.select().from(positions).where(inCurrentElection).orderBy(asc(positions.startTime), asc(positions.createdAt), asc(positions.title)),
    db.select().from(candidates).orderBy(asc(candidates.createdAt), asc(candidates.name)),
  ]);
  const byPosition = new Map<string, Candidate[]>();
  const posById = new Map(posRows.map((p) => [p.id, p]));
  for (const c of candRows) {
    const p = posById.get(c.positionId);
    if (!p) continue;
    const list = byPosition.get(p.id) ?? [];
    list.push(toCandidate(c, p));
    byPosition.set(p.id, list);
  }
  return posRows.map((p) => toPosition(p, byPosition.get(p.id) ?? []));
}

/** Candidates flattened, in position order then by name. */
export async function listCandidates(db: Db): Promise<Candidate[]> {
  return (await listPositions(db)).flatMap((p) => p.candidates);
}

export async function findPosition(db: Db, id: string): Promise<PositionRow | undefined> {
  return (await db.select().from(positions).where(eq(positions.id, id)).limit(1))[0];
}

export async function findCandidateWithPosition(db: Db, id: string) {
  const rows = await db
    .select({ c: candidates, p: positions })
    .from(candidates)
    .innerJoin(positions, eq(positions.id, candidates.positionId))
    .where(eq(candidates.id, id))
    .limit(1);
  const row = rows[0];
  return row ? toCandidate(row.c, row.p) : undefined;
}

/** The voter's roll groups (users.groups), for positions limited to groups. */
export async function voterGroups(database: Database, userId: string): Promise<string[]> {
  return parseGroups((await userGroups(database, userId)) ?? "[]");
}
