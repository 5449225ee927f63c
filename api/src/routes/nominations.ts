/**
 * /nominations: a voter applies to stand (multipart, with a photo), sees their applications
 * and the nominations that name them as proposer or seconder, answers those, and withdraws
 * their own. Staff never stand here: 403. The committee's side is /admin/nominations.
 */
import { Hono } from "hono";
import { applyNominationSchema, nominationMessages, type Nomination } from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { requireUser, requireVoter } from "../http/auth.ts";
import { fail, validationError } from "../http/errors.ts";
import { audit } from "../http/audit.ts";
import { candidateBodyLimit, photoFromForm, readCandidateForm, textField } from "./admin/candidate-form.ts";
import {
  NominationRefusal,
  answerNomination,
  applyForNomination,
  checkApplication,
  myNominations,
  withdrawNomination,
} from "../services/nominations/nominations.ts";

/** A service refusal as the HTTP answer it names; anything else is unexpected. */
export async function settle<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof NominationRefusal) fail(e.status, e.message);
    throw e;
  }
}

/** The audit target every nomination entry shares: the applicant reads plainly in the log. */
export const nominationTarget = (n: Nomination) => `nomination:${n._id} "${n.applicant.name}"`;

/** An applicant's photo, in pixels: 2048 x 2048 is plenty for a face, and a quarter of what staff may upload. */
export const NOMINATION_MAX_PIXELS = 2048 * 2048;

export function nominationRoutes(deps: Deps) {
  const { database, clock } = deps;
  /** Voters whose application photo is being processed now. */
  const processing = new Set<string>();
  return new Hono<AppEnv>()
    .use(requireUser(deps), requireVoter(nominationMessages.nominationVotersOnly))
    .get("/", async (c) => c.json(await myNominations(database, await deps.electionSettings.get(), c.var.user.id, clock.now())))

    .post("/", candidateBodyLimit(), async (c) => {
      const form = await readCandidateForm(c);
      const parsed = applyNominationSchema.safeParse({
        positionId: textField(form, "positionId"),
        manifesto: textField(form, "manifesto"),
        proposer: textField(form, "proposer"),
        seconder: textField(form, "seconder"),
      });
      if (!parsed.success) return validationError(c, parsed.error);
      const { user } = c.var;
      const election = await deps.electionSettings.get();
      // Every rule first: a refused application never costs an image's decoding.
      await settle(checkApplication(database, election, user, parsed.data, clock.now()));
      // One photo at a time per voter, at most NOMINATION_MAX_PIXELS: the image work a voter can
      // cause is bounded whatever they send in parallel.
      if (processing.has(user.id)) fail(429, nominationMessages.nominationPhotoBusy);
      processing.add(user.id);
      let photo;
      try {
        // The candidate's photo pipeline: judged by its bytes, re-encoded, at most one.
        photo = await photoFromForm(form, { maxPixels: NOMINATION_MAX_PIXELS });
      } finally {
        processing.delete(user.id);
      }
      if (!photo) fail(400, nominationMessages.nominationPhotoRequired);
      const nomination = await settle(applyForNomination(database, election, user, parsed.data, photo, clock.now()));
      const supporters = [nomination.proposer && `proposer ${nomination.proposer.matricNumber}`, nomination.seconder && `seconder ${nomination.seconder.matricNumber}`].filter(Boolean);
      await audit(deps, c, {
        action: "nomination.apply",
        target: nominationTarget(nomination),
        summary: `Applied to stand for ${nomination.positionTitle}${supporters.length ? ` with ${supporters.join(" and ")}` : ""}`,
      });
      return c.json({ ...nomination, message: nominationMessages.applySuccess }, 201);
    })

    // The proposer's or seconder's answer, from their own sign-in.
    .post("/:id/:reply{confirm|decline}", async (c) => {
      const reply = c.req.param("reply") === "confirm" ? "confirmed" : "declined";
      const { nomination, role } = await settle(answerNomination(database, c.req.param("id"), c.var.user.id, reply));
      await audit(deps, c, {
        action: reply === "confirmed" ? "nomination.confirm" : "nomination.decline",
        target: nominationTarget(nomination),
        summary: `${reply === "confirmed" ? "Confirmed" : "Declined"} as ${role} of ${nomination.applicant.name} (${nomination.applicant.matricNumber}) for ${nomination.positionTitle}`,
      });
      return c.json({ ...nomination, message: reply === "confirmed" ? nominationMessages.confirmSuccess : nominationMessages.declineSuccess });
    })

    .post("/:id/withdraw", async (c) => {
      const { nomination, removedCandidate } = await settle(withdrawNomination(database, c.req.param("id"), c.var.user.id, clock.now()));
      if (removedCandidate) {
        deps.ballotRules.invalidate(); // votes are checked against positions and candidates
        deps.hub.resultsChanged();
      }
      await audit(deps, c, {
        action: "nomination.withdraw",
        target: nominationTarget(nomination),
        summary: `Withdrew the application for ${nomination.positionTitle}${removedCandidate ? ", leaving the ballot" : ""}`,
      });
      return c.json({ ...nomination, message: nominationMessages.withdrawSuccess });
    });
}
