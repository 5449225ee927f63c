/**
 * Published results, for admins and observers:
 *   GET /results.csv     one row per candidate or choice (shared/results-csv.ts)
 *   GET /results/sheet   what the printable sheet shows, with the SHA-256 of the CSV export's
 *                        exact bytes and the audit chain's head, so a printed copy can be
 *                        checked against the system later
 *   GET /turnout         ballots per hour across the positions' windows; turnout per roll group
 *   GET /positions/:id/ballots.blt   a ranked position's ballots (BLT, shared/src/counting/blt.ts)
 *                        once its results are published: voting for it closed (with the
 *                        offline grace), its last ballots counted, and the results no longer
 *                        withheld from voters (the results setting). A BLT line is a ranking
 *                        with its count, so a rare ranking is visible in it (docs/security.md):
 *                        it is published with the results, for anyone to recount, not before.
 *   GET /positions/:id/who-voted   who voted for a position, never how, once voting for it has
 *                        closed (with the offline grace): a voter on it who did not vote, or a
 *                        count that differs from the ballots (a verifiable position's board),
 *                        shows a ballot cast in someone's name (docs/security.md).
 */
import { createHash } from "node:crypto";
import { Hono } from "hono";
import { messages, resultsCsv, type ResultsSheet, type TurnoutReport } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { count, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { candidates, pendingBallots } from "../../db/schema.ts";
import { auditHead } from "../../services/accountability/audit-log.ts";
import { csvResponse } from "./audit.ts";
import { fail } from "../../http/errors.ts";
import { findPosition } from "../../services/election/catalog.ts";
import { rankedBlt } from "../../services/results/counter.ts";
import { isVoterSql } from "../../db/voters.ts";
import { CURRENT_ELECTION_SQL, CURRENT_POSITIONS_SQL } from "../../db/elections.ts";

const HOUR = 3_600_000;
/** A chart of more hours than this (two weeks) would be unreadable: the latest ones are kept. */
const MAX_HOURS = 14 * 24;

export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

export async function turnoutReport(database: Database, now: number): Promise<TurnoutReport> {
  // SQL: the groups come from json_each, a table-valued function drizzle has no builder for.
  const [windowRs, hourRs, groupRs] = await database.client.batch(
    [
      `SELECT min(start_time) AS start, max(end_time) AS end FROM positions WHERE election_id = ${CURRENT_ELECTION_SQL}`,
      // Totals per hour kept by the votes themselves (ballots carry no time).
      "SELECT hour, votes AS n FROM turnout_hours",
      // Staff never vote; a voter in several groups counts in each; no group is ''.
      `SELECT grp, count(*) AS registered, sum(voted) AS voted FROM (
         SELECT COALESCE(g.value, '') AS grp,
                EXISTS (SELECT 1 FROM participations p WHERE p.voter_id = u.id AND p.position_id IN ${CURRENT_POSITIONS_SQL}) AS voted
           FROM users u LEFT JOIN json_each(CASE WHEN json_valid(u.groups) THEN u.groups ELSE '[]' END) g
          WHERE ${isVoterSql("u")})
        GROUP BY grp ORDER BY grp`,
    ],
    "read",
  );
  const counts = new Map(hourRs.rows.map((r) => [Number(r.hour), Number(r.n)]));
  const start = windowRs.rows[0]?.start;
  const hourly: TurnoutReport["hourly"] = [];
  if (start !== null && start !== undefined) {
    const first = Math.floor(Number(start) / HOUR) * HOUR;
    // To the last end (or now, before it), and on to the latest ballot: votes queued offline may land in the grace after.
    const last = Math.max(Math.floor(Math.min(Number(windowRs.rows[0].end), now) / HOUR) * HOUR, ...counts.keys());
    for (let h = Math.max(first, last - (MAX_HOURS - 1) * HOUR); h <= last; h += HOUR) {
      hourly.push({ hour: new Date(h).toISOString(), ballots: counts.get(h) ?? 0 });
    }
  }
  const groups = groupRs.rows.map((r) => ({ group: String(r.grp), registered: Number(r.registered), voted: Number(r.voted ?? 0) }));
  return { hourly, groups };
}

export function resultsRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    // The sheet and the CSV are documents an officer prints or signs: never the stale snapshot a
    // costly recompute lets the live screens show for a moment (a declaration just made must show).
    .get("/results.csv", async () => csvResponse(resultsCsv(await deps.results.current()), "results.csv"))
    .get("/results/sheet", async (c) => {
      const [results, audit] = await Promise.all([deps.results.current(), auditHead(deps.database)]);
      return c.json({
        producedAt: new Date(deps.clock.now()).toISOString(),
        results,
        csvSha256: sha256Hex(resultsCsv(results)),
        audit,
      } satisfies ResultsSheet);
    })
    .get("/turnout", async (c) => c.json(await turnoutReport(deps.database, deps.clock.now())))
    // A ranked position's ballots, for a recount (npm run recount, OpenSTV, OpaVote, droop).
    .get("/positions/:id/ballots.blt", async (c) => {
      const position = await findPosition(deps.database.db, c.req.param("id"));
      if (!position) fail(404, messages.positionNotFound);
      if (position.method !== "ranked") fail(400, messages.bltNotRanked);
      if (deps.clock.now() < position.endTime + deps.config.voteGraceMs) fail(409, messages.bltNotClosed);
      const [[waiting], current, withheld] = await Promise.all([
        deps.database.db.select({ n: count() }).from(pendingBallots).where(eq(pendingBallots.positionId, position.id)),
        deps.database.client.execute(`SELECT ${CURRENT_ELECTION_SQL} AS id`),
        deps.results.withheldFromVoters(),
      ]);
      // The results setting is the current election's; an earlier election's results were published when it was declared.
      const ofCurrent = position.electionId === Number(current.rows[0]?.id);
      if ((waiting?.n ?? 0) > 0 || (withheld && ofCurrent)) fail(409, messages.bltNotPublished);
      const held = await deps.database.db
        .select({ id: candidates.id, name: candidates.name })
        .from(candidates)
        .where(eq(candidates.positionId, position.id))
        .orderBy(candidates.createdAt, candidates.name);
      const text = await rankedBlt(deps.database, position.id, { title: position.title, seats: position.seats, candidates: held });
      return c.body(text, 200, {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Disposition": `attachment; filename="${position.id}.blt"`,
      });
    })
    .get("/positions/:id/who-voted", async (c) => c.json(await whoVoted(deps, c.req.param("id"))));
}

export interface WhoVoted {
  positionId: string;
  positionTitle: string;
  /** Every voter with a participation here, by matriculation number (never by when they voted). */
  voters: { matricNumber: string; name: string }[];
  /** A verifiable position's ballots on its public board: equal to the list's length when no ballot was cast in anyone else's name. */
  ballotsOnBoard?: number;
}

async function whoVoted(deps: Deps, positionId: string): Promise<WhoVoted> {
  const position = await findPosition(deps.database.db, positionId);
  if (!position) fail(404, messages.positionNotFound);
  if (deps.clock.now() < position.endTime + deps.config.voteGraceMs) fail(409, messages.whoVotedNotClosed);
  const [voters, board] = await deps.database.client.batch(
    [
      {
        sql: "SELECT u.matric_number, u.name FROM participations p JOIN users u ON u.id = p.voter_id WHERE p.position_id = ? ORDER BY u.matric_number",
        args: [position.id],
      },
      {
        sql: "SELECT (SELECT count(*) FROM belenios_ballots WHERE position_id = ?1) AS n, EXISTS (SELECT 1 FROM belenios_positions WHERE position_id = ?1) AS verifiable",
        args: [position.id],
      },
    ],
    "read",
  );
  return {
    positionId: position.id,
    positionTitle: position.title,
    voters: voters.rows.map((r) => ({ matricNumber: String(r.matric_number), name: String(r.name) })),
    ...(Number(board.rows[0]?.verifiable) === 1 ? { ballotsOnBoard: Number(board.rows[0]?.n ?? 0) } : {}),
  };
}
