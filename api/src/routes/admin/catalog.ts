/** /admin: users, positions and candidates (docs/product.md's admin calls). Mounted behind the admin gate in ./index.ts. */
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { eq } from "drizzle-orm";
import {
  MAX_PHOTO_BYTES,
  createCandidateSchema,
  createAccountSchema,
  createPositionSchema,
  manifestoSchema,
  messages,
  resolveLiveCount,
  resolveMethod,
  SINGLE_CHOICE,
} from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { candidates } from "../../db/schema.ts";
import { fail, validationError } from "../../http/errors.ts";
import { jsonBody } from "../../http/validate.ts";
import { audit } from "../../http/audit.ts";
import { cleanImage } from "../../services/election/images.ts";
import { ballotsByPosition, positionHasBallotSql, positionHasVoteSql } from "../../services/election/ballot-freeze.ts";
import { describeMethod, findCandidateWithPosition, findPosition, listCandidates, listPositions, toPosition } from "../../services/election/catalog.ts";
import { positionFrozen } from "../../services/election/elections.ts";
import { CURRENT_ELECTION_SQL } from "../../db/elections.ts";
import { bumpResultsVersionSql } from "../../services/results/results.ts";
import { generateUuid } from "@evoting/shared/belenios";
import { assertNotLocked, forgetVerifiableIds, verifiableMessages, verifiableStates, withBelenios } from "../../services/belenios/verifiable.ts";
import { createUser, toProfile } from "../../services/auth/users.ts";

/** Multipart overhead on top of the photo itself. */
const CANDIDATE_BODY_LIMIT = MAX_PHOTO_BYTES + 64 * 1024;

export function catalogRoutes(deps: Deps) {
  const { database, clock } = deps;
  const db = database.db;

  return new Hono<AppEnv>()
    // The baseline's voter form (docs/product.md), plus groups, and staff accounts (role + password).
    .post("/users", jsonBody(createAccountSchema), async (c) => {
      const input = c.req.valid("json");
      const user = await createUser(database, input, clock.now(), deps.keys);
      if (!user) fail(409, messages.duplicateMatric);
      await database.writer.submit([bumpResultsVersionSql]); // registered voters changed
      deps.hub.resultsChanged();
      await audit(deps, c, {
        action: "user.create",
        target: `user:${user.id} ${user.matricNumber}`,
        summary: `Created ${user.role} ${user.name} (${user.matricNumber})${input.groups.length ? ` in ${input.groups.join(", ")}` : ""}`,
      });
      return c.json({ ...toProfile(user), groups: input.groups, message: messages.createUserSuccess }, 201);
    })

    .get("/positions", async (c) => {
      const [list, ballots, states] = await Promise.all([listPositions(db), ballotsByPosition(database), verifiableStates(database)]);
      return c.json(withBelenios(list.map((p) => ({ ...p, ballots: ballots.get(p._id) ?? 0 })), states));
    })

    .post("/positions", jsonBody(createPositionSchema), async (c) => {
      const input = c.req.valid("json");
      const { title, startTime, endTime } = input;
      // Without method fields, the baseline's single choice (docs/counting.md).
      const method = resolveMethod(SINGLE_CHOICE, input);
      if (typeof method === "string") fail(400, method);
      const liveCount = resolveLiveCount(method.method, false, input.liveCount);
      if (typeof liveCount === "string") fail(400, liveCount);
      if (input.verifiable && method.method === "ranked") fail(400, verifiableMessages.ranked);
      const allowAbstain = input.allowAbstain ?? false;
      const row = { id: randomUUID(), title, startTime: Date.parse(startTime), endTime: Date.parse(endTime), createdAt: clock.now(), allowAbstain, ...method, liveCount };
      const belenios = input.verifiable ? { uuid: generateUuid(), state: "setup" as const } : null;
      await database.writer.submit([
        {
          sql: `INSERT INTO positions (id, title, start_time, end_time, created_at, allow_abstain, method, seats, question, pass_threshold, live_count, election_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${CURRENT_ELECTION_SQL})`,
          args: [row.id, row.title, row.startTime, row.endTime, row.createdAt, allowAbstain ? 1 : 0, row.method, row.seats, row.question, row.passThreshold, row.liveCount ? 1 : 0],
        },
        ...(belenios ? [{ sql: "INSERT INTO belenios_positions (position_id, uuid) VALUES (?, ?)", args: [row.id, belenios.uuid] }] : []),
        bumpResultsVersionSql,
      ]);
      deps.ballotRules.invalidate(); // votes are checked against positions and candidates
      if (belenios) forgetVerifiableIds(database);
      deps.hub.resultsChanged();
      await audit(deps, c, {
        action: "position.create",
        target: `position:${row.id} "${row.title}"`,
        summary: `Created position ${row.title}, voting ${new Date(row.startTime).toISOString()} to ${new Date(row.endTime).toISOString()}${allowAbstain ? ", abstaining allowed" : ""}${describeMethod(row)}`,
      });
      return c.json({ ...toPosition(row), ...(belenios ? { belenios } : {}), message: messages.createPositionSuccess }, 201);
    })

    .delete("/positions/:id", async (c) => {
      const id = c.req.param("id");
      const position = await findPosition(db, id);
      if (!position) fail(404, messages.positionNotFound);
      const title = position.title;
      // A position without ballots goes with its candidates and their photos, in one write.
      // One holding a ballot (counted, waiting or held) is refused: a total the officer must
      // defend cannot disappear. The check is in the same statements, which the writer
      // serialises with votes, so no ballot lands between check and delete. docs/decisions/0001.
      const free = `NOT ${positionHasBallotSql("?")}`;
      const [, deleted] = await database.writer.submit([
        {
          // Applications' photos too (an approved one shares its candidate's).
          sql: `DELETE FROM photos WHERE ${free} AND id IN (SELECT photo_id FROM candidates WHERE position_id = ? AND photo_id IS NOT NULL
                  UNION SELECT photo_id FROM nominations WHERE position_id = ? AND photo_id IS NOT NULL)`,
          args: [id, id, id, id],
        },
        { sql: `DELETE FROM positions WHERE id = ? AND ${free}`, args: [id, id, id] },
        // Only when something was deleted: a refused request must not touch stored state (fuzz.fuzz.test.ts).
        `${bumpResultsVersionSql} AND changes() > 0`,
      ]);
      deps.ballotRules.invalidate(); // votes are checked against positions and candidates
      if (deleted.rowsAffected === 0) {
        if (await findPosition(db, id)) fail(409, messages.positionHasBallots);
        fail(404, messages.positionNotFound);
      }
      deps.hub.resultsChanged();
      await audit(deps, c, { action: "position.delete", target: `position:${id} "${title}"`, summary: `Deleted position ${title}` });
      return c.json({ message: messages.deletePositionSuccess });
    })

    .get("/candidates", async (c) => c.json(await listCandidates(db)))

    .post(
      "/candidates",
      bodyLimit({ maxSize: CANDIDATE_BODY_LIMIT, onError: () => fail(413, messages.photoTooLarge) }),
      async (c) => {
        const type = c.req.header("content-type") ?? "";
        if (!/^multipart\/form-data/i.test(type)) fail(415, `${messages.unsupportedMediaType}: send multipart/form-data`);
        let form: Record<string, string | File | (string | File)[]>;
        try {
          form = await c.req.parseBody({ all: true });
        } catch {
          fail(400, "Request body must be valid multipart form data");
        }
        const text = (v: unknown) => (typeof v === "string" ? v : undefined);
        const parsed = createCandidateSchema.safeParse({ name: text(form.name), positionId: text(form.positionId) });
        if (!parsed.success) return validationError(c, parsed.error);
        const { name, positionId } = parsed.data;
        const manifestoField = manifestoSchema.optional().safeParse(text(form.manifesto));
        if (!manifestoField.success) return validationError(c, manifestoField.error);
        const manifesto = manifestoField.data ?? null;
        await assertNotLocked(database, positionId); // a locked verifiable ballot is frozen

        const photo = form.photo;
        if (Array.isArray(photo)) fail(400, "Send at most one candidate photo");
        let photoRow: { id: string; mime: string; data: Buffer } | null = null;
        if (photo instanceof File && photo.size > 0) {
          if (photo.size > MAX_PHOTO_BYTES) fail(413, messages.photoTooLarge);
          // Decoded and re-encoded: only the pixels are stored (services/election/images.ts).
          const image = await cleanImage(new Uint8Array(await photo.arrayBuffer()));
          if (!image) fail(400, messages.photoInvalid);
          photoRow = { id: randomUUID(), mime: image.mime, data: image.data };
        } else if (typeof photo === "string" && photo !== "") {
          fail(400, messages.photoInvalid);
        }

        const position = await findPosition(db, positionId);
        if (!position) fail(404, messages.positionNotFound);
        if (await positionFrozen(database, { positionId })) fail(409, messages.electionDeclared);
        if (position.method === "referendum") fail(400, messages.referendumHasNoCandidates);

        const id = randomUUID();
        const now = clock.now();
        const insertCandidate = {
          // The ballot is frozen once the position has a vote; checked in this
          // write, which the writer serialises with votes, so no vote slips in between.
          sql: `INSERT INTO candidates (id, position_id, name, photo_id, vote_count, created_at, manifesto)
                SELECT ?, ?, ?, ?, 0, ?, ? WHERE NOT ${positionHasVoteSql("?")}`,
          args: [id, positionId, name, photoRow?.id ?? null, now, manifesto, positionId, positionId],
        };
        let inserted = 0;
        try {
          const results = await database.writer.submit([
            ...(photoRow
              ? [{ sql: "INSERT INTO photos (id, mime, data, created_at) VALUES (?, ?, ?, ?)", args: [photoRow.id, photoRow.mime, photoRow.data, now] }]
              : []),
            insertCandidate,
            `${bumpResultsVersionSql} AND changes() = 1`,
            // A refused candidate leaves no orphan photo behind.
            ...(photoRow ? [{ sql: "DELETE FROM photos WHERE id = ? AND NOT EXISTS (SELECT 1 FROM candidates WHERE photo_id = ?)", args: [photoRow.id, photoRow.id] }] : []),
          ]);
          inserted = results[photoRow ? 1 : 0].rowsAffected;
        } catch {
          fail(404, messages.positionNotFound); // the position was deleted meanwhile
        }
        deps.ballotRules.invalidate(); // votes are checked against positions and candidates
        if (inserted === 0) fail(409, messages.ballotFrozen);
        deps.hub.resultsChanged();
        const created = await findCandidateWithPosition(db, id);
        await audit(deps, c, {
          action: "candidate.create",
          target: `candidate:${id} "${name}"`,
          summary: `Added candidate ${name} to ${position.title}${photoRow ? " with a photo" : ""}`,
        });
        return c.json({ ...created, message: messages.createCandidateSuccess }, 201);
      },
    )

    .delete("/candidates/:id", async (c) => {
      const id = c.req.param("id");
      const existing = await db
        .select({ photoId: candidates.photoId, name: candidates.name })
        .from(candidates)
        .where(eq(candidates.id, id))
        .limit(1);
      if (existing.length === 0) fail(404, messages.candidateNotFound);
      await assertNotLocked(database, (await findCandidateWithPosition(db, id))?.positionId ?? "");
      // Refused once the candidate holds ballots: removing counted ballots would silently
      // change the result (docs/decisions/0001). The check and delete are one statement,
      // serialised with votes by the writer, so no vote slips in between. Votes not yet
      // applied by the mixer are sealed: apply them first, and refuse while any of the
      // position's ballots is still pending (services/votes/mixer.ts).
      await deps.mixer.mix();
      const [deleted] = await database.writer.submit([
        {
          // A ballot for the candidate is in their tally (the mixer's commit), so vote_count = 0
          // says they hold none; positionHasVoteSql covers the position's pending ballots.
          sql: `DELETE FROM candidates WHERE id = ? AND vote_count = 0 AND NOT ${positionHasVoteSql("candidates.position_id")}`,
          args: [id],
        },
        { sql: "DELETE FROM photos WHERE id = ? AND changes() = 1", args: [existing[0].photoId] },
        bumpResultsVersionSql,
      ]);
      deps.ballotRules.invalidate(); // votes are checked against positions and candidates
      if (deleted.rowsAffected === 0) {
        // A candidate without votes of their own is still frozen on a ballot that has votes.
        const [own] = await db.select({ voteCount: candidates.voteCount }).from(candidates).where(eq(candidates.id, id));
        fail(409, (own?.voteCount ?? 0) > 0 ? messages.candidateHasVotes : messages.ballotFrozen);
      }
      deps.hub.resultsChanged();
      const name = existing[0].name;
      await audit(deps, c, { action: "candidate.delete", target: `candidate:${id} "${name}"`, summary: `Deleted candidate ${name}` });
      return c.json({ message: messages.deleteCandidateSuccess });
    });
}
