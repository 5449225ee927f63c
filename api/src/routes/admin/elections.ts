/**
 * The election's life (DESIGN.md section 8), admins only (observers read the current state):
 *   GET  /elections/current   the current election, when it can be declared, whether it has votes
 *   POST /election/declare    freeze the current election's results into the archive (409 before
 *                             the close and grace, or when the integrity check fails: its problems)
 *   POST /elections           start the next election (409 while the current one has votes and is not declared;
 *                             400 when positionIds names a position the current election does not have)
 */
import { Hono } from "hono";
import { messages, startElectionSchema, type CurrentElectionStatus } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { audit } from "../../http/audit.ts";
import { jsonBody } from "../../http/validate.ts";
import { declarableAt, declareElection, toSummary } from "../../services/election/declare.ts";
import { currentElection } from "../../services/election/elections.ts";
import { electionHasVotes, startElection } from "../../services/election/next-election.ts";
import { CURRENT_ELECTION_SQL } from "../../db/elections.ts";

export function electionLifecycleRoutes(deps: Deps) {
  const { database } = deps;
  return new Hono<AppEnv>()
    .get("/elections/current", async (c) => {
      const election = await currentElection(database);
      return c.json({
        election: toSummary(election),
        declarableAt: new Date(await declarableAt(database, election, deps.config.voteGraceMs)).toISOString(),
        hasVotes: await electionHasVotes(database),
        closable: election.state === "open" && (await votingOpenOrAhead(database, deps.clock.now())),
      } satisfies CurrentElectionStatus);
    })

    .post("/election/declare", async (c) => {
      const outcome = await deps.lifecycle.run(() => declareElection(deps, deps.clock.now()));
      if ("refused" in outcome) return c.json({ message: outcome.refused, ...(outcome.problems ? { problems: outcome.problems } : {}) }, 409);
      const { archive } = outcome;
      deps.ballotRules.invalidate();
      deps.results.changed();
      deps.hub.resultsChanged();
      await audit(deps, c, {
        action: "election.declare",
        target: `election:${archive.election.id} "${archive.election.title}"`,
        summary:
          `Declared the results of ${archive.election.title}: ${archive.positions.length} position${archive.positions.length === 1 ? "" : "s"}, ` +
          `${archive.sheet.results.totalVotesCast} voters voted; results.csv SHA-256 ${archive.resultsSha256}; audit head ${archive.audit.seq} ${archive.audit.hash}`,
      });
      return c.json({ message: messages.declareSuccess, election: archive.election });
    })

    .post("/elections", jsonBody(startElectionSchema), async (c) => {
      const input = c.req.valid("json");
      const started = await deps.lifecycle.run(() => startElection(database, input, c.var.user.id, deps.clock.now()));
      if ("refused" in started) return c.json({ message: started.refused }, started.status);
      // Positions, settings and (keepRoll false) sessions changed in one write: every cache forgets.
      deps.ballotRules.invalidate();
      deps.sessions.invalidate();
      deps.electionSettings.invalidate();
      deps.results.changed();
      deps.hub.resultsChanged();
      deps.chat.changed();
      const roll =
        input.keepRoll === false
          ? `; the roll was cleared (${started.removedVoters} voters removed, ${started.disabledVoters} who voted before kept off the roll) for a new import`
          : "; the roll was kept";
      await audit(deps, c, {
        action: "election.start",
        target: `election:${started.id} "${input.title}"`,
        summary:
          `Started election ${started.id}, ${input.title}, voting ${input.startTime} to ${input.endTime}, after election ${started.previous.id} (${started.previous.state === "open" ? "no votes, ended" : "declared"}); ` +
          `${started.copied} position${started.copied === 1 ? "" : "s"} copied${roll}; chat cleared, stations reset`,
      });
      const election = await currentElection(database);
      return c.json({ message: messages.startElectionSuccess, election: toSummary(election) }, 201);
    });
}

/** Whether the current election's window, or one of its positions, still takes votes now or later. */
async function votingOpenOrAhead(database: Deps["database"], now: number): Promise<boolean> {
  const rs = await database.client.execute({
    sql: `SELECT EXISTS (SELECT 1 FROM positions WHERE election_id = ${CURRENT_ELECTION_SQL} AND end_time > ?)
              OR EXISTS (SELECT 1 FROM election_settings WHERE id = 1 AND end_time > ?) AS open`,
    args: [now, now],
  });
  return Number(rs.rows[0]?.open ?? 0) === 1;
}
