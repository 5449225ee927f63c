/**
 * /admin/audit: the audit log, newest first, 50 a page, filtered by action and actor; the
 * whole (filtered) log as CSV; and `/audit/verify`, the chain and signed-head check of
 * `npm run audit` for people without a console. Read-only: observers see it too (the admin
 * gate in ./index.ts).
 */
import { Hono } from "hono";
import { z } from "zod";
import { AUDIT_PAGE_SIZE, toCsv, type AuditEntryView, type AuditPage, type AuditVerification } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { and, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { auditLog } from "../../db/schema.ts";
import { validate } from "../../http/validate.ts";
import { verifyAuditChain } from "../../services/accountability/audit-log.ts";

const auditQuery = z.object({
  action: z.string().trim().max(64).optional(),
  actor: z.string().trim().max(120).optional(),
  page: z.coerce.number({ error: "page must be a whole number" }).int().min(1).max(1_000_000).default(1),
});
type AuditQuery = z.infer<typeof auditQuery>;

/** The filters: action exact, actor by part of the name or matric number (any case). */
function filters({ action, actor }: AuditQuery): SQL | undefined {
  const like = actor ? `%${actor.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
  return and(
    action ? eq(auditLog.action, action) : undefined,
    like ? or(sql`lower(${auditLog.actorName}) LIKE ${like} ESCAPE '\\'`, sql`lower(${auditLog.actorMatric}) LIKE ${like} ESCAPE '\\'`) : undefined,
  );
}

const selectEntries = (database: Database) =>
  database.db
    .select({
      seq: auditLog.seq,
      id: auditLog.id,
      at: auditLog.at,
      actorName: auditLog.actorName,
      actorMatric: auditLog.actorMatric,
      action: auditLog.action,
      target: auditLog.target,
      summary: auditLog.summary,
      address: auditLog.address,
      hash: auditLog.hash,
    })
    .from(auditLog);

const toView = ({ id, at, actorName, actorMatric, ...r }: Awaited<ReturnType<typeof selectEntries>>[number]): AuditEntryView => ({
  _id: id,
  ...r,
  at: new Date(at).toISOString(),
  actor: { name: actorName, matricNumber: actorMatric },
});

export async function auditPage(database: Database, query: AuditQuery): Promise<AuditPage> {
  const where = filters(query);
  const { db } = database;
  const [rows, total, actions] = await db.batch([
    selectEntries(database)
      .where(where)
      .orderBy(desc(auditLog.seq))
      .limit(AUDIT_PAGE_SIZE)
      .offset((query.page - 1) * AUDIT_PAGE_SIZE),
    db.select({ n: count() }).from(auditLog).where(where),
    db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action),
  ]);
  return {
    items: rows.map(toView),
    total: total[0]?.n ?? 0,
    page: query.page,
    pageSize: AUDIT_PAGE_SIZE,
    actions: actions.map((r) => r.action),
  };
}

export const AUDIT_CSV_HEADER = ["seq", "at", "actorName", "actorMatric", "action", "target", "summary", "address", "hash"];

export async function auditCsv(database: Database, query: AuditQuery): Promise<string> {
  const entries = await selectEntries(database).where(filters(query)).orderBy(auditLog.seq);
  const rows = entries.map((r) => {
    const e = toView(r);
    return [e.seq, e.at, e.actor.name, e.actor.matricNumber, e.action, e.target, e.summary, e.address, e.hash];
  });
  return toCsv(AUDIT_CSV_HEADER, rows);
}

export const csvResponse = (body: string, filename: string) =>
  new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });

export function auditRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/audit", validate("query", auditQuery), async (c) => c.json(await auditPage(deps.database, c.req.valid("query"))))
    .get("/audit/export.csv", validate("query", auditQuery), async (c) =>
      csvResponse(await auditCsv(deps.database, c.req.valid("query")), "audit-log.csv"),
    )
    .get("/audit/verify", async (c) => {
      const { entries, head, headSeq, problems } = await verifyAuditChain(deps.database, deps.keys.audit);
      return c.json({ ok: problems.length === 0, entries, headSeq, head, problems } satisfies AuditVerification);
    });
}
