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
import { declaredBel, listDeclared, readArchive } from "../services/election/declare.ts";

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
    })
    // A verifiable position's Belenios archive as declared, for `belenios-tool election verify`.
    .get("/:id/positions/:positionId/archive.bel", validate("param", idParam.extend({ positionId: z.string().max(100) })), async (c) => {
      const { id, positionId } = c.req.valid("param");
      const found = await declaredBel(deps.database, deps.keys, id, positionId);
      if (!found) fail(404, messages.positionNotFound);
      if (found === "broken") fail(409, messages.archiveBroken);
      return c.body(found.bytes as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": "application/x-tar",
        "Content-Disposition": `attachment; filename="${found.entry.uuid}.bel"`,
      });
    });
}
