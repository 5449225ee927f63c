/**
 * Editing positions and candidates (docs/election.md) without breaking an
 * election: window edits follow `windowEditProblem` (shared/), and a position's candidates
 * are frozen once it has a vote. Every edit is audited.
 */
import type { InStatement } from "@libsql/client";
import { Hono } from "hono";
import {
  messages,
  resolveLiveCount,
  resolveMethod,
  updateCandidateSchema,
  updatePositionSchema,
  windowEditProblem,
} from "@evoting/shared";
import { eq } from "drizzle-orm";
import type { AppEnv, Deps } from "../../deps.ts";
import { candidates } from "../../db/schema.ts";
import { fail, validationError } from "../../http/errors.ts";
import { jsonBody } from "../../http/validate.ts";
import { audit } from "../../http/audit.ts";
import { findCandidateWithPosition, findPosition, listPositions, toPosition } from "../../services/election/catalog.ts";
import { describeChanges } from "../../services/election/settings.ts";
import { positionFrozen } from "../../services/election/elections.ts";
import { bumpResultsVersionSql } from "../../services/results/results.ts";
import { candidateBodyLimit, photoFromForm, readCandidateForm, textField } from "./candidate-form.ts";
import { positionHasVoteSql } from "../../services/election/ballot-freeze.ts";
import { assertNotLocked, getVerifiable, setVerifiable, verifiableMessages } from "../../services/belenios/verifiable.ts";

const methodChange_ = (a: { method: string; seats: number; question: string | null }, b: { method: string; seats: number; question: string | null }) =>
  a.method !== b.method || a.seats !== b.seats || a.question !== b.question;

export function editRoutes(deps: Deps) {
  const { database, clock } = deps;
  const db = database.db;

  return new Hono<AppEnv>()
    .patch("/positions/:id", jsonBody(updatePositionSchema), async (c) => {
      const id = c.req.param("id");
      const input = c.req.valid("json");
      const current = await findPosition(db, id);
      if (!current) fail(404, messages.positionNotFound);
      const next = {
        startTime: input.startTime === undefined ? current.startTime : Date.parse(input.startTime),
        endTime: input.endTime === undefined ? current.endTime : Date.parse(input.endTime),
      };
      const problem = windowEditProblem(current, next, clock.now(), deps.config.voteGraceMs);
      if (problem) fail(problem === messages.endLockedClosed ? 409 : 400, problem);
      const method = resolveMethod(current, input);
      if (typeof method === "string") fail(400, method);
      const liveCount = resolveLiveCount(method.method, current.liveCount, input.liveCount);
      if (typeof liveCount === "string") fail(400, liveCount);
      // A verifiable position's ballot freezes at its lock; ranked ones cannot be verifiable yet.
      // Edit Position sends every field: one that keeps its value changes nothing and passes.
      const verifiable = await getVerifiable(database, id);
      const abstainChange = input.allowAbstain !== undefined && input.allowAbstain !== current.allowAbstain;
      if (verifiable && verifiable.state !== "setup" && (methodChange_(current, method) || abstainChange || input.verifiable === false)) {
        fail(409, verifiableMessages.locked);
      }
      if ((input.verifiable ?? verifiable !== null) && method.method === "ranked") fail(400, verifiableMessages.ranked);
      const methodChange =
        method.method !== current.method || method.seats !== current.seats || method.question !== current.question || method.passThreshold !== current.passThreshold;
      if (method.method === "referendum" && current.method !== "referendum") {
        if ((await database.db.$count(candidates, eq(candidates.positionId, id))) > 0) fail(400, messages.referendumHasNoCandidates);
      }
      const updated = {
        ...current,
        ...next,
        ...method,
        title: input.title ?? current.title,
        eligibleGroups: input.eligibleGroups === undefined ? current.eligibleGroups : JSON.stringify(input.eligibleGroups),
        allowAbstain: input.allowAbstain ?? current.allowAbstain,
        liveCount,
      };
      // Who may vote, what a ballot offers and how it is counted freeze at the first vote:
      // checked in the same write, which the writer serialises with votes, so no vote slips in between.
      const rulesChange = updated.eligibleGroups !== current.eligibleGroups || updated.allowAbstain !== current.allowAbstain;
      const [result] = await database.writer.submit([
        {
          sql: `UPDATE positions SET title = ?, start_time = ?, end_time = ?, eligible_groups = ?, allow_abstain = ?,
                       method = ?, seats = ?, question = ?, pass_threshold = ?, live_count = ?
                 WHERE id = ? ${rulesChange || methodChange ? `AND NOT ${positionHasVoteSql("positions.id")}` : ""}`,
          args: [
            updated.title,
            updated.startTime,
            updated.endTime,
            updated.eligibleGroups,
            updated.allowAbstain ? 1 : 0,
            updated.method,
            updated.seats,
            updated.question,
            updated.passThreshold,
            updated.liveCount ? 1 : 0,
            id,
          ],
        },
        `${bumpResultsVersionSql} AND changes() = 1`,
      ]);
      deps.ballotRules.invalidate(); // votes are checked against positions and candidates
      if (result.rowsAffected === 0) {
        if ((rulesChange || methodChange) && (await findPosition(db, id))) fail(409, methodChange ? messages.methodFrozen : messages.ballotFrozenEdit);
        fail(404, messages.positionNotFound); // deleted meanwhile
      }
      if (input.verifiable !== undefined) await setVerifiable(database, id, input.verifiable, updated.method);
      deps.hub.resultsChanged();
      // Both without candidates: the summary names only the fields that changed.
      const after = toPosition(updated);
      await audit(deps, c, {
        action: "position.update",
        target: `position:${id} ${JSON.stringify(after.title)}`,
        summary: `Edited position: ${describeChanges(toPosition(current), after)}`,
      });
      const full = (await listPositions(db)).find((p) => p._id === id) ?? after;
      return c.json({ ...full, message: messages.updatePositionSuccess });
    })

    .patch("/candidates/:id", candidateBodyLimit(), async (c) => {
      const id = c.req.param("id");
      const form = await readCandidateForm(c);
      const parsed = updateCandidateSchema.safeParse({ name: textField(form, "name"), manifesto: textField(form, "manifesto") });
      if (!parsed.success) return validationError(c, parsed.error);
      const moveTo = textField(form, "positionId");
      const photo = await photoFromForm(form);

      const current = await findCandidateWithPosition(db, id);
      if (!current) fail(404, messages.candidateNotFound);
      await assertNotLocked(database, current.positionId);
      const positionId = moveTo && moveTo !== current.positionId ? moveTo : current.positionId;
      if (positionId !== current.positionId && !(await findPosition(db, positionId))) fail(404, messages.positionNotFound);
      if (positionId !== current.positionId) await assertNotLocked(database, positionId);
      if (await positionFrozen(database, { positionId })) fail(409, messages.electionDeclared);
      const { name = current.name, manifesto = current.manifesto ?? null } = parsed.data;

      // A move is refused if either position has a vote; checked in the same write as the
      // update, which the writer serialises with votes, so no vote slips in between.
      const moving = positionId !== current.positionId;
      const [oldPhoto] = photo ? await db.select({ photoId: candidates.photoId }).from(candidates).where(eq(candidates.id, id)) : [];
      // What a voter saw on the ballot (name, photo, manifesto) is frozen once the position has a
      // vote too: a rename would move counted votes to another name.
      const rewriting = name !== current.name || manifesto !== (current.manifesto ?? null) || photo !== null;
      const frozen = moving || rewriting;
      const statements: InStatement[] = [
        {
          sql: `UPDATE candidates SET name = ?, manifesto = ?, position_id = ?, photo_id = coalesce(?, photo_id)
                 WHERE id = ? ${frozen ? `AND NOT ${positionHasVoteSql("candidates.position_id")}` : ""} ${moving ? `AND NOT ${positionHasVoteSql("?")}` : ""}`,
          args: [name, manifesto, positionId, photo?.id ?? null, id, ...(moving ? [positionId, positionId] : [])],
        },
        `${bumpResultsVersionSql} AND changes() = 1`,
      ];
      if (photo) {
        // The new photo goes in first (the candidate references it); whichever photo no
        // candidate uses afterwards (the old one, or the new one if the update was refused) goes.
        const unused = "DELETE FROM photos WHERE id = ? AND NOT EXISTS (SELECT 1 FROM candidates WHERE photo_id = ?)";
        statements.unshift({ sql: "INSERT INTO photos (id, mime, data, created_at) VALUES (?, ?, ?, ?)", args: [photo.id, photo.mime, photo.data, clock.now()] });
        statements.push({ sql: unused, args: [photo.id, photo.id] });
        if (oldPhoto?.photoId) statements.push({ sql: unused, args: [oldPhoto.photoId, oldPhoto.photoId] });
      }
      const results = await database.writer.submit(statements);
      deps.ballotRules.invalidate(); // votes are checked against positions and candidates
      if (results[photo ? 1 : 0].rowsAffected === 0) {
        if (frozen && (await findCandidateWithPosition(db, id))) fail(409, moving ? messages.ballotFrozen : messages.ballotFrozenEdit);
        fail(404, messages.candidateNotFound);
      }
      deps.hub.resultsChanged();
      const after = await findCandidateWithPosition(db, id);
      await audit(deps, c, {
        action: "candidate.update",
        target: `candidate:${id} ${JSON.stringify(name)}`,
        summary: `Edited candidate: ${describeChanges(
          { name: current.name, position: current.positionTitle, manifesto: current.manifesto ? "set" : "none", photo: current.photo },
          { name, position: after?.positionTitle, manifesto: manifesto ? "set" : "none", photo: after?.photo },
        )}`,
      });
      return c.json({ ...after, message: messages.updateCandidateSuccess });
    });
}
