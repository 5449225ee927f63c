/**
 * PUT  /admin/election        replace the election settings; audited with before and after.
 * POST /admin/election/close  'Close voting now': every position still open (or yet to open) and
 *                             the election end now, in one write, audited; the offline grace then
 *                             runs as after any close. 409 when nothing is open.
 */
import { Hono } from "hono";
import { electionSettingsSchema, messages } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { fail } from "../../http/errors.ts";
import { jsonBody } from "../../http/validate.ts";
import { audit } from "../../http/audit.ts";
import { describeChanges, saveElection, SettingsRefused } from "../../services/election/settings.ts";
import { bumpResultsVersionSql } from "../../services/results/results.ts";
import { CURRENT_ELECTION_SQL, inCurrentPositions } from "../../db/elections.ts";
import { participations } from "../../db/schema.ts";

export function electionAdminRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .post("/election/close", async (c) => {
      const now = deps.clock.now();
      const closed = await deps.lifecycle.run(() => closeVotingNow(deps, now));
      if (!closed) fail(409, messages.nothingToClose);
      deps.electionSettings.invalidate();
      deps.ballotRules.invalidate(); // votes are checked against each position's window
      deps.results.changed();
      deps.hub.resultsChanged();
      const titles = closed.titles.length ? closed.titles.join(", ") : "none open";
      await audit(deps, c, {
        action: "election.close",
        target: "election",
        summary: `Closed voting now (${new Date(now).toISOString()}): the election and ${closed.titles.length} position${closed.titles.length === 1 ? "" : "s"} (${titles}); offline votes cast before the close are accepted for ${deps.config.voteGraceMs / 60_000} minutes`,
      });
      return c.json({ message: messages.votingClosed, closedAt: new Date(now).toISOString(), positions: closed.titles });
    })
    .put("/election", jsonBody(electionSettingsSchema), async (c) => {
    const input = c.req.valid("json");
    // Switching Yes/No on or off after votes would change what cast ballots meant (a 'No', or
    // a lone candidate's vote read as 'Yes'): like a position's ballot, it freezes at the first vote.
    if (input.unopposed !== (await deps.electionSettings.get()).unopposed) {
      const voted = await deps.database.db.select({ voterId: participations.voterId }).from(participations).where(inCurrentPositions(participations.positionId)).limit(1);
      if (voted.length > 0) fail(409, messages.unopposedFrozen);
    }
    let saved;
    try {
      saved = await saveElection(deps, input, deps.clock.now());
    } catch (e) {
      if (e instanceof SettingsRefused) fail(400, e.message);
      throw e;
    }
    const { before, after } = saved;
    // Visibility and the window decide who sees tallies: live streams get a fresh round.
    await deps.database.writer.submit([bumpResultsVersionSql]);
    deps.hub.resultsChanged();
    await audit(deps, c, {
      action: "election.update",
      target: "election",
      summary: `Election settings changed: ${describeChanges(before, after)}`,
    });
    return c.json(after);
  });
}

/**
 * Ends the current election's window and every position of it that still takes votes (or would
 * later) at `now`, in one write; null when nothing is open. A window that has not begun starts a
 * moment before it ends, so each stays a valid window (start before end).
 */
async function closeVotingNow(deps: Deps, now: number): Promise<{ titles: string[] } | null> {
  const { database } = deps;
  const [open, settings] = await database.client.batch(
    [
      { sql: `SELECT title FROM positions WHERE election_id = ${CURRENT_ELECTION_SQL} AND end_time > ? ORDER BY start_time, created_at, title`, args: [now] },
      { sql: "SELECT end_time FROM election_settings WHERE id = 1", args: [] },
    ],
    "read",
  );
  const electionOpen = Number(settings.rows[0]?.end_time ?? 0) > now;
  if (open.rows.length === 0 && !electionOpen) return null;
  await database.writer.submit([
    {
      sql: `UPDATE positions SET start_time = min(start_time, ?), end_time = ? WHERE election_id = ${CURRENT_ELECTION_SQL} AND end_time > ?`,
      args: [now - 1, now, now],
    },
    { sql: "UPDATE election_settings SET start_time = min(start_time, ?), end_time = ?, updated_at = ? WHERE id = 1 AND end_time > ?", args: [now - 1, now, now, now] },
    bumpResultsVersionSql,
  ]);
  return { titles: open.rows.map((r) => String(r.title)) };
}
