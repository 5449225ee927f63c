/**
 * GET /vote/receipts?positionId=: every receipt code counted for a position, once
 * voting for it has closed for good (its end plus the grace for votes queued offline before
 * it: the list must not change after it is published). Open to every signed-in user.
 */
import { Hono } from "hono";
import { z } from "zod";
import { messages, type ReceiptList } from "@evoting/shared";
import { eq } from "drizzle-orm";
import type { AppEnv, Deps } from "../deps.ts";
import { positions } from "../db/schema.ts";
import { requireUser } from "../http/auth.ts";
import { fail } from "../http/errors.ts";
import { validate } from "../http/validate.ts";

const receiptsQuery = z.object({ positionId: z.string({ error: "positionId is required" }).trim().min(1, { error: "positionId is required" }).max(64) });

export function receiptRoutes(deps: Deps) {
  return new Hono<AppEnv>().use(requireUser(deps)).get("/", validate("query", receiptsQuery), async (c) => {
    const { positionId } = c.req.valid("query");
    const [position] = await deps.database.db.select({ endTime: positions.endTime }).from(positions).where(eq(positions.id, positionId));
    if (!position) return fail(404, messages.positionNotFound);
    if (deps.clock.now() < position.endTime + deps.config.voteGraceMs) fail(403, messages.receiptsNotYet);
    // A closed position's waiting ballots are all due: apply them now rather than answer 'not yet'
    // until the mixer's timer comes round.
    const receipts = (await deps.receiptLists.of(positionId)) ?? (await deps.mixer.mix().then(() => deps.receiptLists.of(positionId)));
    if (!receipts) fail(403, messages.receiptsNotYet);
    return c.json({ positionId, total: receipts.length, receipts } satisfies ReceiptList);
  });
}
