/**
 * /admin/nominations: the committee screens applications. Observers read (the admin gate in
 * ./index.ts lets them GET only); approving makes the applicant a candidate, rejecting needs
 * a reason the applicant reads. Every decision is audited.
 */
import { Hono } from "hono";
import { nominationFiltersSchema, nominationMessages, rejectNominationSchema } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { jsonBody, validate } from "../../http/validate.ts";
import { audit } from "../../http/audit.ts";
import { approveNomination, listNominations, rejectNomination } from "../../services/nominations/nominations.ts";
import { nominationTarget, settle } from "../nominations.ts";

export function nominationAdminRoutes(deps: Deps) {
  const { database, clock } = deps;
  return new Hono<AppEnv>()
    .get("/nominations", validate("query", nominationFiltersSchema), async (c) => c.json(await listNominations(database, c.req.valid("query"))))

    .post("/nominations/:id/approve", async (c) => {
      const nomination = await settle(approveNomination(database, c.req.param("id"), clock.now()));
      deps.ballotRules.invalidate(); // votes are checked against positions and candidates
      deps.hub.resultsChanged();
      await audit(deps, c, {
        action: "nomination.approve",
        target: nominationTarget(nomination),
        summary: `Approved ${nomination.applicant.name} (${nomination.applicant.matricNumber}) for ${nomination.positionTitle}: added as candidate ${nomination.candidateId}`,
      });
      return c.json({ ...nomination, message: nominationMessages.approveSuccess });
    })

    .post("/nominations/:id/reject", jsonBody(rejectNominationSchema), async (c) => {
      const { reason } = c.req.valid("json");
      const nomination = await settle(rejectNomination(database, c.req.param("id"), reason, clock.now()));
      await audit(deps, c, {
        action: "nomination.reject",
        target: nominationTarget(nomination),
        summary: `Rejected ${nomination.applicant.name} (${nomination.applicant.matricNumber}) for ${nomination.positionTitle}: ${reason}`,
      });
      return c.json({ ...nomination, message: nominationMessages.rejectSuccess });
    });
}
