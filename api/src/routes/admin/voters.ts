/**
 * /admin/voters (docs/roll.md): the roll page by page, one voter's edit, password reset
 * and delete, the CSV export, and the roll's group labels (`/voters/groups`, for filters). Observers may read (list, export); the gate in ./index.ts
 * refuses them every write.
 */
import { Hono } from "hono";
import { z } from "zod";
import { MAX_GROUP_LENGTH, MAX_NAME_LENGTH, MAX_VOTERS_PAGE_SIZE, VOTERS_PAGE_SIZE, messages, updateVoterSchema } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { fail } from "../../http/errors.ts";
import { jsonBody, validate } from "../../http/validate.ts";
import { audit } from "../../http/audit.ts";
import { deleteVoterIfNotVoted, exportRollCsv, findVoter, listVoters, resetVoterPassword, rollGroups, updateVoter } from "../../services/roll/roll.ts";

const listQuerySchema = z.object({
  query: z.string().max(MAX_NAME_LENGTH, { error: "Search text is too long" }).optional(),
  group: z.string().max(MAX_GROUP_LENGTH, { error: messages.groupTooLong }).optional(),
  voted: z
    .enum(["", "1", "0", "true", "false", "yes", "no"], { error: "voted must be yes or no" })
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : ["1", "true", "yes"].includes(v))),
  page: z.coerce.number({ error: "page must be a whole number from 1" }).int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce
    .number({ error: `pageSize must be from 1 to ${MAX_VOTERS_PAGE_SIZE}` })
    .int()
    .min(1)
    .max(MAX_VOTERS_PAGE_SIZE)
    .default(VOTERS_PAGE_SIZE),
});

export function voterRoutes(deps: Deps) {
  const { database, clock, keys } = deps;

  async function voterOr404(id: string) {
    const voter = await findVoter(database, id);
    if (!voter) fail(404, messages.voterNotFound);
    return voter;
  }

  return new Hono<AppEnv>()
    .get("/voters", validate("query", listQuerySchema), async (c) => {
      const { query, group, voted, page, pageSize } = c.req.valid("query");
      return c.json(await listVoters(database, { query, group: group || undefined, voted }, page, pageSize));
    })

    .get("/voters/groups", async (c) => c.json({ groups: await rollGroups(database) }))

    .get("/voters/export.csv", async (c) => {
      const csv = await exportRollCsv(database);
      const day = new Date(clock.now()).toISOString().slice(0, 10);
      return c.body(csv, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="voter-roll-${day}.csv"`,
        "Cache-Control": "no-store",
      });
    })

    .patch("/voters/:id", jsonBody(updateVoterSchema), async (c) => {
      const voter = await voterOr404(c.req.param("id"));
      const changes = c.req.valid("json");
      const fields = Object.keys(changes);
      if (fields.length > 0) {
        await updateVoter(deps, keys, voter, changes, clock.now());
        // Field names only: the date of birth itself never goes into the log.
        await audit(deps, c, { action: "voter.update", target: `user:${voter._id} ${voter.matricNumber}`, summary: `Edited voter ${voter.matricNumber}: ${fields.join(", ")}` });
      }
      const { hasDateOfBirth: _, ...updated } = await voterOr404(voter._id);
      return c.json({ ...updated, message: messages.updateVoterSuccess });
    })

    .post("/voters/:id/reset-password", async (c) => {
      const voter = await voterOr404(c.req.param("id"));
      // Without a date of birth on record the voter could not sign in at all afterwards.
      if (!voter.hasDateOfBirth) fail(409, messages.voterNoDateOfBirth);
      await resetVoterPassword(deps, voter._id, clock.now());
      await audit(deps, c, {
        action: "voter.password.reset",
        target: `user:${voter._id} ${voter.matricNumber}`,
        summary: `Reset the password of ${voter.matricNumber}; their sessions were ended`,
      });
      return c.body(null, 204);
    })

    .delete("/voters/:id", async (c) => {
      const voter = await voterOr404(c.req.param("id"));
      if (!(await deleteVoterIfNotVoted(deps, voter._id))) {
        if (await findVoter(database, voter._id)) fail(409, messages.voterHasVoted);
        fail(404, messages.voterNotFound);
      }
      deps.hub.resultsChanged();
      await audit(deps, c, { action: "voter.delete", target: `user:${voter._id} ${voter.matricNumber}`, summary: `Deleted voter ${voter.name} (${voter.matricNumber})` });
      return c.body(null, 204);
    });
}
