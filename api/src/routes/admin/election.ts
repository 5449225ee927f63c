/** PUT /admin/election: replace the election settings; audited with before and after. */
import { Hono } from "hono";
import { electionSettingsSchema, messages } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { fail } from "../../http/errors.ts";
import { jsonBody } from "../../http/validate.ts";
import { audit } from "../../http/audit.ts";
import { describeChanges, saveElection, SettingsRefused } from "../../services/election/settings.ts";
import { bumpResultsVersionSql } from "../../services/results/results.ts";
import { inCurrentPositions } from "../../db/elections.ts";
import { participations } from "../../db/schema.ts";

export function electionAdminRoutes(deps: Deps) {
  return new Hono<AppEnv>().put("/election", jsonBody(electionSettingsSchema), async (c) => {
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
