/** PUT /admin/election (issue 11): replace the election settings; audited with before and after. */
import { Hono } from "hono";
import { electionSettingsSchema } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { jsonBody } from "../../http/validate.ts";
import { audit } from "../../services/audit-log.ts";
import { describeChanges, saveElection } from "../../services/election.ts";
import { bumpResultsVersionSql } from "../../services/results.ts";

export function electionAdminRoutes(deps: Deps) {
  return new Hono<AppEnv>().put("/election", ...jsonBody(electionSettingsSchema), async (c) => {
    const { before, after } = await saveElection(deps.database, c.req.valid("json"), deps.clock.now());
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
