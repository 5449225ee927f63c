/**
 * Starting the next election, or a by-election: the same path with only the positions being filled
 * copied (`positionIds`).
 * Allowed once the current election is declared, or while it has no vote at all (it is then
 * marked 'ended', never listed). The old election keeps its positions, candidates, ballots and
 * participations (db/elections.ts), so its receipts and counted-ballot lists stay checkable; the
 * new one starts with its own settings window, the chosen positions without candidates or votes,
 * an empty chat room, no polling stations, and the roll kept or taken off for a fresh import.
 * Everything is one write: a failure leaves the current election as it was.
 */
import { randomUUID } from "node:crypto";
import type { InStatement } from "@libsql/client";
import { messages, type StartElectionInput } from "@evoting/shared";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { positions } from "../../db/schema.ts";
import { BUMP_CATALOG_VERSION, CURRENT_POSITIONS_SQL } from "../../db/elections.ts";
import { isVoterSql } from "../../db/voters.ts";
import { bumpResultsVersionSql } from "../results/results.ts";
import { onlyIfOneRow, type Refusal } from "./declare.ts";
import { currentElection, type ElectionRow } from "./elections.ts";

/**
 * The current election holds a vote: counted, waiting for the mixer, or held from a lost station
 * device. One SQL text for the read that picks the answer and the write that decides.
 */
const HAS_VOTES_SQL = `EXISTS (SELECT 1 FROM participations WHERE position_id IN ${CURRENT_POSITIONS_SQL})
         OR EXISTS (SELECT 1 FROM pending_ballots WHERE position_id IN ${CURRENT_POSITIONS_SQL})
         OR EXISTS (SELECT 1 FROM disputed_ballots)`;

/** Whether the current election holds any vote. */
export async function electionHasVotes(database: Database): Promise<boolean> {
  // SQL: one statement of three EXISTS and no FROM, which drizzle's select cannot build.
  const rs = await database.client.execute(`SELECT ${HAS_VOTES_SQL} AS voted`);
  return Number(rs.rows[0]?.voted ?? 0) === 1;
}

export interface StartedElection {
  previous: ElectionRow;
  id: number;
  copied: number;
  /** keepRoll false: voters deleted (never voted) and voters taken off the roll (kept, disabled, for their past votes). */
  removedVoters: number;
  disabledVoters: number;
}

/** A refusal and its status: 409 for the election's state, 400 for a request naming positions it cannot copy. */
export type StartRefusal = Refusal & { status: 400 | 409 };

export async function startElection(database: Database, input: StartElectionInput, actorId: string, now: number): Promise<StartRefusal | StartedElection> {
  const previous = await currentElection(database);
  if (previous.state === "open" && (await electionHasVotes(database))) return { refused: messages.newElectionHasVotes, status: 409 };
  const id = previous.id + 1;
  const startTime = Date.parse(input.startTime);
  const endTime = Date.parse(input.endTime);

  const copies: InStatement[] = [];
  // Chosen ids imply copying: the schema already refused them alongside copyPositions false.
  if (input.copyPositions || input.positionIds) {
    const kept = await database.db
      .select()
      .from(positions)
      .where(eq(positions.electionId, previous.id))
      .orderBy(positions.startTime, positions.createdAt, positions.title);
    const chosen = input.positionIds ? new Set(input.positionIds) : null;
    if (chosen) {
      const known = new Set(kept.map((p) => p.id));
      const unknown = [...chosen].filter((positionId) => !known.has(positionId));
      if (unknown.length > 0) return { refused: messages.copyPositionsUnknown(unknown), status: 400 };
    }
    kept.filter((p) => !chosen || chosen.has(p.id)).forEach((p, i) =>
      copies.push({
        sql: `INSERT INTO positions (id, title, start_time, end_time, created_at, eligible_groups, allow_abstain, method, seats, question, pass_threshold, live_count, election_id)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        // One millisecond apart: the copies keep the old order (positions list by start, then creation).
        args: [randomUUID(), p.title, startTime, endTime, now + i, p.eligibleGroups, p.allowAbstain, p.method, p.seats, p.question, p.passThreshold, p.liveCount, id],
      }),
    );
  }

  const voter = isVoterSql("u");
  const everVoted = "EXISTS (SELECT 1 FROM participations p WHERE p.voter_id = u.id)";
  const roll: InStatement[] = input.keepRoll === false
    ? [
        // A voter with a vote in any election stays as an account (the participation belongs to
        // that election) but is off the roll: disabled, signed out, until an import lists them again.
        { sql: `UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL AND user_id IN (SELECT u.id FROM users u WHERE ${voter})`, args: [now] },
        { sql: `UPDATE users AS u SET disabled_at = ? WHERE ${voter} AND ${everVoted}`, args: [now] },
        { sql: `DELETE FROM users AS u WHERE ${voter} AND NOT ${everVoted}`, args: [] },
      ]
    : [];

  // An open election is replaced only while it has no vote, judged in this write: a first vote
  // committed since the read above undoes it (votes are written only to the current, open
  // election, so none can land in it once this commits).
  const noVotes: InStatement[] =
    previous.state === "open" ? [`SELECT CASE WHEN ${HAS_VOTES_SQL} THEN json('the election received a vote meanwhile') ELSE 1 END`] : [];
  const statements: InStatement[] = [
    ...noVotes,
    // Inserts nothing if another process started an election meanwhile, and the guard then
    // undoes the whole write.
    {
      sql: `INSERT INTO elections (id, title, subtitle, start_time, end_time, state, created_at)
            SELECT ?, ?, ?, ?, ?, 'open', ? WHERE (SELECT max(id) FROM elections) = ?`,
      args: [id, input.title, input.subtitle, startTime, endTime, now, previous.id],
    },
    onlyIfOneRow("another election was started at the same time"),
    { sql: "UPDATE elections SET state = 'ended' WHERE id = ? AND state = 'open'", args: [previous.id] },
    // The nomination window was the last election's: the new one's is set in Election Settings.
    {
      sql: `UPDATE election_settings SET title = ?, subtitle = ?, start_time = ?, end_time = ?, nominations_start = NULL, nominations_end = NULL, updated_at = ?
             WHERE id = 1`,
      args: [input.title, input.subtitle, startTime, endTime, now],
    },
    ...copies,
    // Stations are the running election's: their officers' sign-ins, devices and delivered
    // ballots go (the ballots themselves stay with the old election's positions).
    { sql: "DELETE FROM stations", args: [] },
    // The chat room starts empty. The newest row stays, emptied and moved to the next change
    // number, so the room's change numbers never go back (a stream resumes from one); it marks
    // the clear, which every connected client hears as `reset` and drops the old messages.
    { sql: "DELETE FROM chat_messages WHERE rev < (SELECT max(rev) FROM chat_messages)", args: [] },
    { sql: "UPDATE chat_messages SET text = '', removed_at = ?, removed_by = ?, rev = rev + 1, clears_room = 1", args: [now, actorId] },
    { sql: "DELETE FROM chat_mutes", args: [] },
    // The turnout chart is the running election's (the old one's counts are in its archive).
    { sql: "DELETE FROM turnout_hours", args: [] },
    ...roll,
    bumpResultsVersionSql,
    BUMP_CATALOG_VERSION,
  ];
  let results;
  try {
    results = await database.writer.submit(statements);
  } catch (error) {
    // A guard's failure: another process started one first, or a vote came in.
    if ((await currentElection(database)).id !== previous.id) return { refused: messages.electionChangedMeanwhile, status: 409 };
    if (previous.state === "open" && (await electionHasVotes(database))) return { refused: messages.newElectionHasVotes, status: 409 };
    throw error;
  }
  const rollAt = noVotes.length + 4 + copies.length + 5;
  return {
    previous,
    id,
    copied: copies.length,
    disabledVoters: input.keepRoll === false ? results[rollAt + 1].rowsAffected : 0,
    removedVoters: input.keepRoll === false ? results[rollAt + 2].rowsAffected : 0,
  };
}
