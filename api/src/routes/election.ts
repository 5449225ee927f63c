/**
 * /election: the settings every signed-in page reads (banner, countdown, results
 * visibility), and `/election/public`, only the title and subtitle, for the login page
 * before anyone has signed in. Nothing else about the election is shown to anonymous callers.
 */
import { Hono } from "hono";
import type { ElectionSettings, PublicElection } from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { requireUser } from "../http/auth.ts";

export function electionRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/public", async (c) => {
      const { title, subtitle } = await deps.electionSettings.get();
      return c.json({ title, subtitle } satisfies PublicElection);
    })
    // The grace lets a page say when a closed vote's receipts and full count follow.
    .get("/", requireUser(deps), async (c) => c.json({ ...(await deps.electionSettings.get()), voteGraceMinutes: deps.config.voteGraceMs / 60_000 } satisfies ElectionSettings));
}
