/**
 * /elections: the declared elections and each one's archive, as published at its declaration
 * (services/election/declare.ts). Open to every signed-in user: a declared election's results
 * were public when it was declared (after its close, when even 'after-close' visibility shows them).
 */
import { Hono } from "hono";
import { z } from "zod";
import { messages } from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { requireUser } from "../http/auth.ts";
import { fail } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import { listDeclared, readArchive } from "../services/election/declare.ts";

const idParam = z.object({ id: z.coerce.number({ error: messages.electionNotFound }).int({ error: messages.electionNotFound }).positive({ error: messages.electionNotFound }) });

export function electionsRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .use(requireUser(deps))
    .get("/", async (c) => c.json(await listDeclared(deps.database)))
    .get("/:id", validate("param", idParam), async (c) => {
      const archive = await readArchive(deps.database, deps.keys, c.req.valid("param").id);
      if (!archive) fail(404, messages.electionNotFound);
      if (archive === "broken") fail(409, messages.archiveBroken);
      return c.json(archive);
    });
}
