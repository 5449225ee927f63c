/**
 * /election: the settings every signed-in page reads (banner, countdown, results
 * visibility), and `/election/public`, only the title and subtitle, for the login page
 * before anyone has signed in. Nothing else about the election is shown to anonymous callers.
 */
import { Hono } from "hono";
import type { PublicElection } from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { requireUser } from "../http/auth.ts";

export function electionRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/public", async (c) => {
      const { title, subtitle } = await deps.electionSettings.get();
      return c.json({ title, subtitle } satisfies PublicElection);
    })
    .get("/", requireUser(deps), async (c) => c.json(await deps.electionSettings.get()));
}
