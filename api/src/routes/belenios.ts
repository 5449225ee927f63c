/**
 * Verifiable positions' calls (docs/verifiable.md): the admin's set-up and count under
 * /admin (its gate checks roles), and the public ballot box under /positions, without sign-in.
 */
import { Hono } from "hono";
import { z } from "zod";
import { bodyLimit } from "hono/body-limit";
import { canWriteAdmin, MAX_ROLL_ROWS, messages } from "@evoting/shared";
import type { AppEnv, AuthUser, Deps } from "../deps.ts";
import { fail } from "../http/errors.ts";
import { jsonBody } from "../http/validate.ts";
import { audit } from "../http/audit.ts";
import {
  addTrustee,
  advanceCount,
  archiveStream,
  board,
  getVerifiable,
  listTrustees,
  lockedVerifiable,
  lockPosition,
  putCredentials,
  submitPartialDecryption,
  type TrusteeView,
} from "../services/belenios/verifiable.ts";

const trusteeSchema = z.union([
  z.object({ name: z.string().max(100), server: z.literal(true) }).strict(),
  z.object({ name: z.string().max(100), publicKey: z.string().max(5000) }).strict(),
]);
/** One public credential per voter: a whole roll's (617 digits each, with quotes and commas) fits. */
const CREDENTIALS_BODY_LIMIT = (MAX_ROLL_ROWS + 5_000) * 650;
const credentialsSchema = z.object({ publicCredentials: z.array(z.string().max(1000)).max(200_000) }).strict();
const partialDecryptionSchema = z.object({ trusteeId: z.number().int().min(1).max(1000), partialDecryption: z.string().max(2_000_000) }).strict();

/** Who makes a trustee write: an admin for anyone, an observer for their own trustee only. */
const caller = (user: AuthUser) => ({ id: user.id, admin: canWriteAdmin(user.role) });

/** A trustee as the Trustees page lists it: `mine` instead of the account that registered it. */
const publicView = ({ userId, ...t }: TrusteeView, me: string) => ({ ...t, mine: userId === me });

export function beleniosAdminRoutes(deps: Deps) {
  const { database, clock, keys } = deps;
  return new Hono<AppEnv>()
    .get("/trustees", async (c) => c.json((await listTrustees(database)).map((t) => publicView(t, c.var.user.id))))
    .post("/trustees", jsonBody(trusteeSchema), async (c) => {
      const input = c.req.valid("json");
      const trustee = await addTrustee(database, keys, "server" in input ? { name: input.name, server: true } : input, caller(c.var.user));
      await audit(deps, c, {
        action: "belenios.trustee.add",
        target: `trustee:${trustee.id} "${trustee.name}"`,
        summary: `Added trustee ${trustee.id}, ${trustee.name}${trustee.server ? " (the server)" : ""}`,
      });
      return c.json(publicView(trustee, c.var.user.id), 201);
    })
    .put(
      "/positions/:id/credentials",
      bodyLimit({ maxSize: CREDENTIALS_BODY_LIMIT, onError: () => fail(413, messages.bodyTooLarge) }),
      jsonBody(credentialsSchema),
      async (c) => {
      const id = c.req.param("id");
      const count = await putCredentials(database, id, c.req.valid("json").publicCredentials);
      await audit(deps, c, { action: "belenios.credentials", target: `position:${id}`, summary: `Uploaded ${count} public credentials` });
      return c.json({ count });
      },
    )
    .post("/positions/:id/lock", async (c) => {
      const id = c.req.param("id");
      const locked = await lockPosition(database, id, clock.now());
      await audit(deps, c, { action: "belenios.lock", target: `position:${id}`, summary: `Locked verifiable position ${locked.uuid}` });
      deps.ballotRules.invalidate();
      return c.json({ uuid: locked.uuid, state: locked.state });
    })
    .post("/positions/:id/partial-decryptions", jsonBody(partialDecryptionSchema), async (c) => {
      const id = c.req.param("id");
      const { trusteeId, partialDecryption } = c.req.valid("json");
      await advanceCount(database, keys, id, clock.now(), deps.config.voteGraceMs);
      const { remaining } = await submitPartialDecryption(database, id, trusteeId, partialDecryption, caller(c.var.user));
      if (remaining === 0) {
        deps.results.changed();
        deps.hub.resultsChanged();
      }
      await audit(deps, c, { action: "belenios.decrypt", target: `position:${id}`, summary: `Partial decryption of trustee ${trusteeId} accepted` });
      return c.json({ remaining }, 201);
    });
}

export function beleniosPublicRoutes(deps: Deps) {
  const { database, clock, keys } = deps;
  return new Hono<AppEnv>()
    .get("/verifiable", async (c) => c.json(await lockedVerifiable(database)))
    .get("/:id/archive.bel", async (c) => {
      const id = c.req.param("id");
      await advanceCount(database, keys, id, clock.now(), deps.config.voteGraceMs);
      const v = await getVerifiable(database, id);
      if (!v) fail(404, messages.positionNotFound);
      const archive = await archiveStream(database, id);
      if (!archive) fail(404, "This verifiable position is not locked yet: its ballot box opens at the lock.");
      return c.body(archive, 200, {
        "Content-Type": "application/x-tar",
        "Content-Disposition": `attachment; filename="${v.uuid}.bel"`,
      });
    })
    .get("/:id/board", async (c) => {
      const id = c.req.param("id");
      await advanceCount(database, keys, id, clock.now(), deps.config.voteGraceMs);
      const b = await board(database, id);
      if (!b) fail(404, messages.positionNotFound);
      return c.json(b);
    });
}
