/**
 * /admin/notifications (docs/mail.md): 'Notify Voters'. A send queues one message per
 * recipient and answers 202 with their count; the list shows each send's progress and, with
 * the embedded default, the newest messages written to outbox/. Observers read; the gate in
 * ./index.ts refuses them the send. Every send is audited.
 */
import { Hono } from "hono";
import { notificationKindLabels, notificationPreviewSchema, notificationSchema, type NotificationQueued } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { audit } from "../../http/audit.ts";
import { fail } from "../../http/errors.ts";
import { jsonBody, validate } from "../../http/validate.ts";
import { countRecipients, listNotifications, NotificationRefused, queueNotification } from "../../services/mail/notifications.ts";

export function notificationRoutes(deps: Deps) {
  const refused = (err: unknown): never => {
    if (err instanceof NotificationRefused) fail(409, err.message);
    throw err;
  };
  return new Hono<AppEnv>()
    .get("/notifications", async (c) => c.json(await listNotifications(deps.database, deps.mail)))
    .get("/notifications/recipients", validate("query", notificationPreviewSchema), async (c) => {
      const { kind, groups } = c.req.valid("query");
      const recipients = await countRecipients(deps.database, { kind, groups, now: deps.clock.now(), reminderMs: deps.reminderMs }).catch(refused);
      return c.json({ recipients });
    })
    .post("/notifications", jsonBody(notificationSchema), async (c) => {
      const { kind, groups = [] } = c.req.valid("json");
      const user = c.var.user;
      const queued = await queueNotification(deps, { kind, groups, now: deps.clock.now(), reminderMs: deps.reminderMs }, `${user.name} (${user.matricNumber})`).catch(refused);
      await audit(deps, c, {
        action: "mail.send",
        target: `notification:${queued.id}`,
        summary: `Queued ${queued.recipients} ${notificationKindLabels[kind].toLowerCase()} message${queued.recipients === 1 ? "" : "s"}${groups.length ? ` to the groups ${groups.join(", ")}` : " to every voter it applies to"}`,
      });
      return c.json(queued satisfies NotificationQueued, 202);
    });
}
