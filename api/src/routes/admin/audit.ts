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
import type { Database } from "../../db/client.ts";
import { validate } from "../../http/validate.ts";
import { verifyAuditChain } from "../../services/accountability/audit-log.ts";

const auditQuery = z.object({
  action: z.string().trim().max(64).optional(),
  actor: z.string().trim().max(120).optional(),
  page: z.coerce.number({ error: "page must be a whole number" }).int().min(1).max(1_000_000).default(1),
});
type AuditQuery = z.infer<typeof auditQuery>;

/** WHERE clause for the filters: action exact, actor by part of the name or matric number. */
function filters({ action, actor }: AuditQuery) {
  const where: string[] = [];
  const args: string[] = [];
  if (action) {
    where.push("action = ?");
    args.push(action);
  }
  if (actor) {
    const like = `%${actor.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    where.push("(lower(actor_name) LIKE ? ESCAPE '\\' OR lower(actor_matric) LIKE ? ESCAPE '\\')");
    args.push(like, like);
  }
  return { sql: where.length ? `WHERE ${where.join(" AND ")}` : "", args };
}

const COLUMNS = "seq, id, at, actor_name, actor_matric, action, target, summary, address, hash";

const toView = (r: Record<string, unknown>): AuditEntryView => ({
  _id: String(r.id),
  seq: Number(r.seq),
  at: new Date(Number(r.at)).toISOString(),
  actor: { name: String(r.actor_name), matricNumber: String(r.actor_matric) },
  action: String(r.action),
  target: String(r.target),
  summary: String(r.summary),
  address: String(r.address),
  hash: String(r.hash),
});

export async function auditPage(database: Database, query: AuditQuery): Promise<AuditPage> {
  const where = filters(query);
  const [rows, count, actions] = await database.client.batch(
    [
      {
        sql: `SELECT ${COLUMNS} FROM audit_log ${where.sql} ORDER BY seq DESC LIMIT ? OFFSET ?`,
        args: [...where.args, AUDIT_PAGE_SIZE, (query.page - 1) * AUDIT_PAGE_SIZE],
      },
      { sql: `SELECT count(*) AS n FROM audit_log ${where.sql}`, args: where.args },
      "SELECT DISTINCT action FROM audit_log ORDER BY action",
    ],
    "read",
  );
  return {
    items: rows.rows.map((r) => toView(r as Record<string, unknown>)),
    total: Number(count.rows[0]?.n ?? 0),
    page: query.page,
    pageSize: AUDIT_PAGE_SIZE,
    actions: actions.rows.map((r) => String(r.action)),
  };
}

export const AUDIT_CSV_HEADER = ["seq", "at", "actorName", "actorMatric", "action", "target", "summary", "address", "hash"];

export async function auditCsv(database: Database, query: AuditQuery): Promise<string> {
  const where = filters(query);
  const rs = await database.client.execute({ sql: `SELECT ${COLUMNS} FROM audit_log ${where.sql} ORDER BY seq`, args: where.args });
  const rows = rs.rows.map((r) => {
    const e = toView(r as Record<string, unknown>);
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
