/**
 * Nominations (shared/src/nominations.ts): applying, a proposer's and seconder's answers,
 * withdrawing, and the committee's approval or rejection. Every rule that could race another
 * request (a first vote, a second application, another decision) is checked inside the write
 * itself, which the writer serialises with votes; the reads before it only pick the message.
 * A refusal throws `NominationRefusal` and writes nothing.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  isEligible,
  messages,
  nominationMessages as m,
  nominationsCloseAt,
  nominationsOpen,
  type ApplyNominationInput,
  type ElectionSettings,
  type MyNominations,
  type Nomination,
  type NominationRequest,
  type NominationState,
  type SupporterAnswer,
} from "@evoting/shared";
import type { Database } from "../../db/client.ts";
import { nominations, positions, users } from "../../db/schema.ts";
import { parseGroups, photoUrl, voterGroups } from "../election/catalog.ts";
import { bumpResultsVersionSql } from "../results/results.ts";
import { positionHasVoteSql } from "../election/ballot-freeze.ts";
import { CURRENT_ELECTION_SQL, inCurrentPositions } from "../../db/elections.ts";
import { positionFrozen } from "../election/elections.ts";

/**
 * A nomination belongs to its position's election: the lists show the current election's, and
 * nothing about a past or declared election's nominations changes.
 */
const ofCurrentElection = inCurrentPositions(nominations.positionId);

async function refuseIfPastElection(database: Database, positionId: string): Promise<void> {
  if (await positionFrozen(database, { positionId })) refuse(409, messages.electionDeclared);
}

export class NominationRefusal extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

const refuse = (status: NominationRefusal["status"], message: string): never => {
  throw new NominationRefusal(status, message);
};

/**
 * A withdrawn or rejected application's photo goes with it (the row keeps no photo: the foreign
 * key sets it null), unless a candidate shows it; so applying and withdrawing cannot grow the
 * database.
 */
const dropPhotoOfEnded = (id: string) => ({
  sql: `DELETE FROM photos WHERE id = (SELECT photo_id FROM nominations WHERE id = ? AND state IN ('withdrawn', 'rejected'))
          AND NOT EXISTS (SELECT 1 FROM candidates WHERE photo_id = photos.id)`,
  args: [id],
});

/** Applications one voter may make for one position, whatever became of them. */
export const MAX_APPLICATIONS = 3;

/** States in which an application still counts against applying again for the same position. */
const LIVE_STATES = "('awaiting', 'submitted', 'approved')";

const applicant = alias(users, "applicant");
const proposer = alias(users, "proposer");
const seconder = alias(users, "seconder");

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Nominations as both sides read them, newest first, with names from the roll. */
async function readNominations(database: Database, where?: SQL): Promise<Nomination[]> {
  const rows = await database.db
    .select({
      n: nominations,
      positionTitle: positions.title,
      applicantName: applicant.name,
      applicantMatric: applicant.matricNumber,
      proposerName: proposer.name,
      proposerMatric: proposer.matricNumber,
      seconderName: seconder.name,
      seconderMatric: seconder.matricNumber,
    })
    .from(nominations)
    .innerJoin(positions, eq(positions.id, nominations.positionId))
    .innerJoin(applicant, eq(applicant.id, nominations.applicantId))
    .leftJoin(proposer, eq(proposer.id, nominations.proposerId))
    .leftJoin(seconder, eq(seconder.id, nominations.seconderId))
    .where(where)
    .orderBy(desc(nominations.createdAt), nominations.id);
  const supporter = (name: string | null, matricNumber: string | null, answer: SupporterAnswer | null) =>
    name !== null && matricNumber !== null ? { name, matricNumber, answer: answer ?? "pending" } : null;
  return rows.map(({ n, ...r }) => ({
    _id: n.id,
    positionId: n.positionId,
    positionTitle: r.positionTitle,
    applicant: { name: r.applicantName, matricNumber: r.applicantMatric },
    manifesto: n.manifesto,
    photo: photoUrl(n.photoId),
    proposer: supporter(r.proposerName, r.proposerMatric, n.proposerAnswer),
    seconder: supporter(r.seconderName, r.seconderMatric, n.seconderAnswer),
    state: n.state,
    reason: n.reason,
    candidateId: n.candidateId,
    submittedAt: new Date(n.createdAt).toISOString(),
    decidedAt: iso(n.decidedAt),
  }));
}

export async function findNomination(database: Database, id: string): Promise<Nomination | undefined> {
  return (await readNominations(database, eq(nominations.id, id)))[0];
}

/** The committee's list, filtered by state and position. */
export function listNominations(database: Database, filters: { state?: NominationState; positionId?: string }): Promise<Nomination[]> {
  const where = and(
    ofCurrentElection,
    filters.state ? eq(nominations.state, filters.state) : undefined,
    filters.positionId ? eq(nominations.positionId, filters.positionId) : undefined,
  );
  return readNominations(database, where);
}

async function positionHasVote(database: Database, positionId: string): Promise<boolean> {
  // SQL: the very test the writes below freeze a ballot by (election/ballot-freeze.ts).
  const rs = await database.client.execute({ sql: `SELECT 1 AS voted WHERE ${positionHasVoteSql("?")}`, args: [positionId, positionId] });
  return rs.rows.length > 0;
}

/** The window, the positions this voter may apply for, their applications and the answers asked of them. */
export async function myNominations(database: Database, election: ElectionSettings, userId: string, now: number): Promise<MyNominations> {
  const open = nominationsOpen(now, election);
  const closeAt = nominationsCloseAt(election);
  const askedAs = (role: "proposer" | "seconder") =>
    readNominations(
      database,
      and(
        ofCurrentElection,
        eq(nominations.state, "awaiting"),
        role === "proposer" ? eq(nominations.proposerId, userId) : eq(nominations.seconderId, userId),
        role === "proposer" ? eq(nominations.proposerAnswer, "pending") : eq(nominations.seconderAnswer, "pending"),
      ),
    ).then((list) => list.map((n): NominationRequest => ({ _id: n._id, role, applicant: n.applicant, positionTitle: n.positionTitle })));
  const [mine, asProposer, asSeconder, groups, candidates] = await Promise.all([
    readNominations(database, and(ofCurrentElection, eq(nominations.applicantId, userId))),
    askedAs("proposer"),
    askedAs("seconder"),
    voterGroups(database, userId),
    open ? openPositions(database) : Promise.resolve([]),
  ]);
  return {
    // The end answered is when nominations actually close: no later than voting starts.
    window: { start: election.nominationsStart, end: closeAt === null ? null : new Date(closeAt).toISOString(), open },
    positions: candidates.filter((p) => isEligible(p.eligibleGroups, groups)).map(({ _id, title }) => ({ _id, title })),
    mine,
    requests: [...asProposer, ...asSeconder],
  };
}

/** Positions that take candidates and whose ballot is not yet published (no vote). */
async function openPositions(database: Database): Promise<{ _id: string; title: string; eligibleGroups: string[] }[]> {
  // SQL: the ballot-freeze test (election/ballot-freeze.ts) is SQL text shared with the writes.
  const rows = await database.client.execute(
    `SELECT id, title, eligible_groups FROM positions p
      WHERE p.election_id = ${CURRENT_ELECTION_SQL} AND method <> 'referendum' AND NOT ${positionHasVoteSql("p.id")}
      ORDER BY start_time, created_at, title`,
  );
  return rows.rows.map((r) => ({ _id: String(r.id), title: String(r.title), eligibleGroups: parseJsonList(r.eligible_groups) }));
}

const parseJsonList = (v: unknown): string[] => parseGroups(v === null || v === undefined ? null : String(v));

interface Voter {
  id: string;
  name: string;
  matricNumber: string;
}

/** A proposer or seconder: a voter on the roll (never staff), not the applicant. */
async function supporterOf(database: Database, matricNumber: string | null, applicantId: string, label: string): Promise<Voter | null> {
  if (!matricNumber) return null;
  const row = (
    await database.db
      .select({ id: users.id, name: users.name, matricNumber: users.matricNumber, role: users.role, disabledAt: users.disabledAt })
      .from(users)
      .where(eq(users.matricNumber, matricNumber))
      .limit(1)
  )[0];
  // A voter taken off the roll (disabled) is not on it.
  if (!row || row.role !== "voter" || row.disabledAt !== null) refuse(400, `The ${label} (${matricNumber}) ${m.supporterNotOnRoll}`);
  if (row!.id === applicantId) refuse(400, m.supporterIsApplicant);
  return row!;
}

export interface PhotoRow {
  id: string;
  mime: string;
  data: Buffer;
}

/**
 * Every rule an application must pass, read before its photo is processed (decoding an image
 * costs far more than these reads, so a refused application costs next to nothing): the window,
 * the position, eligibility, the supporters, a live application already made and a published
 * ballot. The write (`applyForNomination`) checks the last two again, inside itself.
 */
export async function checkApplication(
  database: Database,
  election: ElectionSettings,
  voter: Voter,
  input: ApplyNominationInput,
  now: number,
): Promise<{ proposerRow: Voter | null; seconderRow: Voter | null }> {
  if (!nominationsOpen(now, election)) refuse(409, m.nominationsClosed);

  const position = (await database.db.select().from(positions).where(eq(positions.id, input.positionId)).limit(1))[0];
  if (!position) refuse(404, messages.positionNotFound);
  await refuseIfPastElection(database, position!.id);
  if (position!.method === "referendum") refuse(400, m.nominationReferendum);
  if (!isEligible(parseJsonList(position!.eligibleGroups), await voterGroups(database, voter.id))) refuse(403, m.nominationNotEligible);
  const proposerRow = await supporterOf(database, input.proposer, voter.id, "proposer");
  const seconderRow = await supporterOf(database, input.seconder, voter.id, "seconder");
  if (proposerRow && seconderRow && proposerRow.id === seconderRow.id) refuse(400, m.supportersSame);
  if (await positionHasVote(database, input.positionId)) refuse(409, m.nominationBallotPublished);
  const live = await database.db
    .select({ id: nominations.id })
    .from(nominations)
    .where(and(eq(nominations.applicantId, voter.id), eq(nominations.positionId, input.positionId), sql`${nominations.state} IN ${sql.raw(LIVE_STATES)}`))
    .limit(1);
  if (live.length > 0) refuse(409, m.nominationDuplicate);
  const made = await database.db.$count(nominations, and(eq(nominations.applicantId, voter.id), eq(nominations.positionId, input.positionId)));
  if (made >= MAX_APPLICATIONS) refuse(409, m.nominationTooMany(MAX_APPLICATIONS));
  return { proposerRow, seconderRow };
}

/** A voter's application; answers the stored nomination. */
export async function applyForNomination(
  database: Database,
  election: ElectionSettings,
  voter: Voter,
  input: ApplyNominationInput,
  photo: PhotoRow,
  now: number,
): Promise<Nomination> {
  const { proposerRow, seconderRow } = await checkApplication(database, election, voter, input, now);

  const id = randomUUID();
  const state: NominationState = proposerRow || seconderRow ? "awaiting" : "submitted";
  const [, inserted] = await database.writer.submit([
    { sql: "INSERT INTO photos (id, mime, data, created_at) VALUES (?, ?, ?, ?)", args: [photo.id, photo.mime, photo.data, now] },
    {
      // One live application per voter and position; none once the ballot is published.
      sql: `INSERT INTO nominations (id, position_id, applicant_id, manifesto, photo_id, proposer_id, proposer_answer,
              seconder_id, seconder_answer, state, created_at)
            SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
            WHERE NOT EXISTS (SELECT 1 FROM nominations WHERE applicant_id = ? AND position_id = ? AND state IN ${LIVE_STATES})
              AND (SELECT count(*) FROM nominations WHERE applicant_id = ? AND position_id = ?) < ${MAX_APPLICATIONS}
              AND NOT ${positionHasVoteSql("?")}`,
      args: [
        id,
        input.positionId,
        voter.id,
        input.manifesto,
        photo.id,
        proposerRow?.id ?? null,
        proposerRow ? "pending" : null,
        seconderRow?.id ?? null,
        seconderRow ? "pending" : null,
        state,
        now,
        voter.id,
        input.positionId,
        voter.id,
        input.positionId,
        input.positionId,
        input.positionId,
      ],
    },
    // A refused application leaves no orphan photo behind.
    { sql: "DELETE FROM photos WHERE id = ? AND NOT EXISTS (SELECT 1 FROM nominations WHERE photo_id = ?)", args: [photo.id, photo.id] },
  ]);
  if (inserted.rowsAffected === 0) {
    if (await positionHasVote(database, input.positionId)) refuse(409, m.nominationBallotPublished);
    refuse(409, m.nominationDuplicate);
  }
  return (await findNomination(database, id))!;
}

/** A named proposer or seconder confirms or declines; the last confirmation submits it for screening. */
export async function answerNomination(database: Database, id: string, userId: string, answer: "confirmed" | "declined"): Promise<{ nomination: Nomination; role: "proposer" | "seconder" }> {
  const [row] = await database.db
    .select({ positionId: nominations.positionId, proposerId: nominations.proposerId, seconderId: nominations.seconderId, proposerAnswer: nominations.proposerAnswer, seconderAnswer: nominations.seconderAnswer })
    .from(nominations)
    .where(eq(nominations.id, id));
  if (!row) return refuse(404, m.nominationNotFound);
  const role = row.proposerId === userId ? "proposer" : row.seconderId === userId ? "seconder" : refuse(403, m.nominationNotYours);
  await refuseIfPastElection(database, row.positionId);
  const other = role === "proposer" ? "seconder" : "proposer";
  const [updated] = await database.writer.submit([
    {
      sql: `UPDATE nominations SET ${role}_answer = ?,
              state = CASE WHEN ? = 'confirmed' AND (${other}_id IS NULL OR ${other}_answer = 'confirmed') THEN 'submitted' ELSE state END
            WHERE id = ? AND ${role}_id = ? AND ${role}_answer = 'pending' AND state = 'awaiting'`,
      args: [answer, answer, id, userId],
    },
  ]);
  if (updated.rowsAffected === 0) refuse(409, row[`${role}Answer`] !== "pending" ? m.nominationAlreadyAnswered : m.nominationNotAwaiting);
  return { nomination: (await findNomination(database, id))!, role };
}

/**
 * The applicant withdraws, until the ballot is published (the position's first vote). An
 * approved application takes its candidate off the ballot in the same write.
 */
export async function withdrawNomination(database: Database, id: string, userId: string, now: number): Promise<{ nomination: Nomination; removedCandidate: boolean }> {
  const before = await findNominationOwned(database, id, userId);
  await refuseIfPastElection(database, before.positionId);
  if (!["awaiting", "submitted", "approved"].includes(before.state)) refuse(409, m.nominationCannotWithdraw);
  const [removed, updated] = await database.writer.submit([
    {
      sql: `DELETE FROM candidates WHERE id = (SELECT candidate_id FROM nominations WHERE id = ? AND applicant_id = ? AND state = 'approved')
              AND vote_count = 0 AND NOT ${positionHasVoteSql("candidates.position_id")}`,
      args: [id, userId],
    },
    {
      sql: `UPDATE nominations SET state = 'withdrawn', decided_at = ?, candidate_id = NULL
            WHERE id = ? AND applicant_id = ? AND state IN ${LIVE_STATES} AND NOT ${positionHasVoteSql("nominations.position_id")}
              AND (candidate_id IS NULL OR NOT EXISTS (SELECT 1 FROM candidates WHERE id = nominations.candidate_id))`,
      args: [now, id, userId],
    },
    `${bumpResultsVersionSql} AND changes() = 1`,
    dropPhotoOfEnded(id),
  ]);
  if (updated.rowsAffected === 0) {
    if (await positionHasVote(database, before.positionId)) refuse(409, m.nominationBallotPublished);
    refuse(409, m.nominationCannotWithdraw);
  }
  return { nomination: (await findNomination(database, id))!, removedCandidate: removed.rowsAffected > 0 };
}

async function findNominationOwned(database: Database, id: string, userId: string): Promise<Nomination> {
  const [owner] = await database.db.select({ applicantId: nominations.applicantId }).from(nominations).where(eq(nominations.id, id));
  // Someone else's application is as unknown as a missing one: ids are not disclosed.
  if (!owner || owner.applicantId !== userId) refuse(404, m.nominationNotFound);
  return (await findNomination(database, id))!;
}

/**
 * The committee approves a submitted application: the applicant becomes a candidate of the
 * position (their name on the roll, the application's photo and manifesto), unless the
 * ballot is frozen (a vote) or they already stand there (a candidate of the same name).
 */
export async function approveNomination(database: Database, id: string, now: number): Promise<Nomination> {
  const before = await findNomination(database, id);
  if (!before) refuse(404, m.nominationNotFound);
  await refuseIfPastElection(database, before!.positionId);
  if (before!.state !== "submitted") refuse(409, `${m.nominationNotSubmitted} ${before!.state}`);
  const candidateId = randomUUID();
  const sameName = "EXISTS (SELECT 1 FROM candidates k WHERE k.position_id = n.position_id AND lower(trim(k.name)) = lower(trim(u.name)))";
  await database.writer.submit([
    {
      sql: `INSERT INTO candidates (id, position_id, name, photo_id, vote_count, created_at, manifesto)
            SELECT ?, n.position_id, u.name, n.photo_id, 0, ?, n.manifesto
            FROM nominations n JOIN users u ON u.id = n.applicant_id JOIN positions p ON p.id = n.position_id
            WHERE n.id = ? AND n.state = 'submitted' AND p.method <> 'referendum'
              AND NOT ${positionHasVoteSql("n.position_id")} AND NOT ${sameName}`,
      args: [candidateId, now, id],
    },
    {
      sql: "UPDATE nominations SET state = 'approved', candidate_id = ?, decided_at = ? WHERE id = ? AND EXISTS (SELECT 1 FROM candidates WHERE id = ?)",
      args: [candidateId, now, id, candidateId],
    },
    `${bumpResultsVersionSql} AND changes() = 1`,
  ]);
  const after = (await findNomination(database, id))!;
  if (after.state === "approved" && after.candidateId === candidateId) return after;
  if (after.state !== "submitted") refuse(409, `${m.nominationNotSubmitted} ${after.state}`);
  if (await positionHasVote(database, after.positionId)) refuse(409, messages.ballotFrozen);
  const [position] = await database.db.select({ method: positions.method }).from(positions).where(eq(positions.id, after.positionId));
  if (position?.method === "referendum") refuse(409, m.nominationReferendum);
  return refuse(409, m.nominationAlreadyCandidate);
}

/** The committee rejects an application not yet decided, with the reason the applicant reads. */
export async function rejectNomination(database: Database, id: string, reason: string, now: number): Promise<Nomination> {
  const before = await findNomination(database, id);
  if (!before) refuse(404, m.nominationNotFound);
  await refuseIfPastElection(database, before!.positionId);
  const [updated] = await database.writer.submit([
    {
      sql: "UPDATE nominations SET state = 'rejected', reason = ?, decided_at = ? WHERE id = ? AND state IN ('awaiting', 'submitted')",
      args: [reason, now, id],
    },
    dropPhotoOfEnded(id),
  ]);
  if (updated.rowsAffected === 0) refuse(409, m.nominationAlreadyDecided);
  return (await findNomination(database, id))!;
}
