/**
 * The audit trail: what admins, observers and officers did, append-only and tamper-evident.
 * Each entry's `hash` is SHA-256 over the previous entry's hash and this entry's fields, so
 * editing or deleting any row breaks the chain from there on (`verifyAuditChain`, run by
 * `npm run audit`).
 *
 * Appends are serialised in this process (one chain tip at a time) and conditioned in SQL on
 * the tip they were computed from, so a second process appending at the same moment makes
 * one of the two retry on the new tip instead of forking the chain.
 *
 * The chain alone cannot tell that its NEWEST entries were removed (what is left is still a
 * valid chain). So each append also signs the new head (seq and hash) with HMAC under the
 * server's `audit` key, which lives outside the database, into `audit_anchor` in the same
 * write. Someone editing a copy of the database without the key can neither re-sign a
 * shortened chain nor append a forged entry; the remaining limit is replaying an older copy
 * of both the log and its anchor together (a rollback), which the head digest on every
 * printed results sheet (`/admin/results/print`) lets a reader catch. Database triggers
 * refuse UPDATE and DELETE on the log, so no app code can change it by mistake.
 *
 * Never put a secret, a date of birth, or anything about how someone voted in an entry.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { auditLog, users } from "../../db/schema.ts";
import type { AuthUser } from "../auth/auth-user.ts";
import type { Keys } from "../../security/keys.ts";

export const GENESIS_HASH = "0".repeat(64);

export interface AuditActor {
  id: string | null;
  name: string;
  matricNumber: string;
}

export interface AuditInput {
  /** Short dotted verb, e.g. `user.create`, `position.update`, `auth.login.failed`. */
  action: string;
  /** What it was done to, e.g. `position:<id> "President"`; empty when nothing in particular. */
  target: string;
  /** One plain sentence for a person reading the log. */
  summary: string;
}

export interface AuditEntry extends AuditInput {
  id: string;
  seq: number;
  at: number;
  actor: AuditActor;
  address: string;
  prevHash: string;
  hash: string;
}

/** The fields the hash covers, in a fixed order. */
export function entryHash(prevHash: string, e: Omit<AuditEntry, "seq" | "prevHash" | "hash">): string {
  const fields = [prevHash, e.id, String(e.at), e.actor.id ?? "", e.actor.name, e.actor.matricNumber, e.action, e.target, e.summary, e.address];
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex");
}

export const anchorMac = (key: Buffer, seq: number, hash: string) =>
  createHmac("sha256", key).update(`audit-head:${seq}:${hash}`).digest("hex");

/** Someone without a request (the server operator at the console: backups). */
export const OPERATOR: AuditActor = { id: null, name: "Server operator", matricNumber: "-" };

/** The audit log of one database, signing its head with the server's `audit` key. */
export class AuditLog {
  /** The append in progress: appends in this process run one after the other. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly keys: Pick<Keys, "audit">,
  ) {}

  /** Appends one entry. Resolves once it is committed. */
  append(entry: AuditInput & { actor: AuditActor; address: string; at: number }): Promise<AuditEntry> {
    const run = this.tail.catch(() => undefined).then(() => this.appendNow(entry));
    this.tail = run;
    return run;
  }

  private async appendNow(entry: AuditInput & { actor: AuditActor; address: string; at: number }): Promise<AuditEntry> {
    const { database } = this;
    const key = this.keys.audit;
    for (let attempt = 0; ; attempt++) {
      const [tip] = await database.db.select({ seq: auditLog.seq, hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
      const prevHash = tip ? tip.hash : GENESIS_HASH;
      const seq = tip ? tip.seq + 1 : 1;
      const id = randomUUID();
      const full = { ...entry, id };
      const hash = entryHash(prevHash, full);
      const [inserted] = await database.writer.submit([
        {
          sql: `INSERT INTO audit_log (seq, id, at, actor_id, actor_name, actor_matric, action, target, summary, address, prev_hash, hash)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
                 WHERE COALESCE((SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1), ?) = ?
                   AND NOT EXISTS (SELECT 1 FROM audit_log WHERE seq = ?)`,
          args: [
            seq, id, entry.at, entry.actor.id, entry.actor.name, entry.actor.matricNumber, entry.action, entry.target,
            entry.summary, entry.address, prevHash, hash, GENESIS_HASH, prevHash, seq,
          ],
        },
        // Same write, only when the entry went in: the signed head always names the last entry.
        {
          sql: "INSERT OR REPLACE INTO audit_anchor (id, seq, hash, mac) SELECT 1, ?, ?, ? WHERE changes() = 1",
          args: [seq, hash, anchorMac(key, seq, hash)],
        },
      ]);
      if (inserted.rowsAffected === 1) return { ...full, seq, prevHash, hash };
      if (attempt > 20) throw new Error("Could not append to the audit log: the chain tip kept moving");
    }
  }
}

export const actorOf = (user: Pick<AuthUser, "id" | "name" | "matricNumber">): AuditActor => ({
  id: user.id,
  name: user.name,
  matricNumber: user.matricNumber,
});

export interface ChainProblem {
  seq: number;
  id: string;
  problem: string;
}

/** Rows read per query while verifying: the walk yields to the event loop between pages. */
const VERIFY_PAGE = 1_000;

export interface AuditChainReport {
  entries: number;
  head: string;
  headSeq: number;
  anchor: "ok" | "broken" | "unchecked";
  problems: ChainProblem[];
}

/**
 * Walks the whole chain; returns every row where it breaks (empty when intact). With the
 * server's audit key it also checks the signed head: entries removed from the end, or
 * appended by someone without the key, are named too. Without the key (a copy checked
 * elsewhere) `anchor` says it was not checked.
 *
 * The walk reads a page at a time (a long log must not hold the server's event loop for
 * seconds) and reads the signed head after it: an entry and its head commit together, so
 * every entry walked is covered by that head, and entries appended meanwhile are walked too.
 *
 * SQL read as stored and coerced here, not through the schema's types: an edited copy may
 * hold anything in any column, and every row must be named, never crash the check.
 */
export async function verifyAuditChain(
  database: Database,
  key: Buffer | null,
  pageSize = VERIFY_PAGE,
): Promise<AuditChainReport> {
  const problems: ChainProblem[] = [];
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  let lastId = "";
  let entries = 0;
  let anchorRow: Record<string, unknown> | undefined;
  // The chain starts at 1 (the schema refuses less); a row before it on an edited copy is
  // listed by the Audit Log page like any other, so it is named here, never skipped.
  const outside = await database.client.execute("SELECT seq, id FROM audit_log WHERE seq < 1 ORDER BY seq");
  for (const r of outside.rows) problems.push({ seq: Number(r.seq), id: String(r.id), problem: "comes before the first entry of the chain (was added outside it)" });
  for (;;) {
    const rs = await database.client.execute({
      sql: `SELECT seq, id, at, actor_id, actor_name, actor_matric, action, target, summary, address, prev_hash, hash
              FROM audit_log WHERE seq >= ? ORDER BY seq LIMIT ?`,
      args: [expectedSeq, pageSize],
    });
    for (const r of rs.rows) {
      const seq = Number(r.seq);
      const id = String(r.id);
      if (seq !== expectedSeq) problems.push({ seq, id, problem: `entry ${expectedSeq}${seq > expectedSeq + 1 ? `-${seq - 1}` : ""} is missing` });
      if (String(r.prev_hash) !== prev) problems.push({ seq, id, problem: "does not follow the entry before it" });
      const recomputed = entryHash(String(r.prev_hash), {
        id,
        at: Number(r.at),
        actor: { id: r.actor_id === null ? null : String(r.actor_id), name: String(r.actor_name), matricNumber: String(r.actor_matric) },
        action: String(r.action),
        target: String(r.target),
        summary: String(r.summary),
        address: String(r.address),
      });
      if (recomputed !== String(r.hash)) problems.push({ seq, id, problem: "was changed after it was written" });
      prev = String(r.hash);
      expectedSeq = seq + 1;
      lastId = id;
      entries++;
    }
    if (rs.rows.length === pageSize) continue;
    anchorRow = (await database.client.execute("SELECT seq, hash, mac FROM audit_anchor WHERE id = 1")).rows[0] as Record<string, unknown> | undefined;
    // The head names a later entry: appended while we walked (walk on), or removed from the end.
    if (anchorRow && Number(anchorRow.seq) >= expectedSeq) {
      const more = await database.client.execute({ sql: "SELECT 1 FROM audit_log WHERE seq >= ? LIMIT 1", args: [expectedSeq] });
      if (more.rows.length > 0) continue;
    }
    break;
  }
  const headSeq = expectedSeq - 1;
  let anchor: "ok" | "broken" | "unchecked" = "unchecked";
  if (key) {
    const before = problems.length;
    const a = anchorRow;
    if (!a) {
      if (headSeq > 0) problems.push({ seq: headSeq, id: lastId, problem: "the signed head of the log is missing" });
    } else {
      const seq = Number(a.seq);
      const hash = String(a.hash);
      const given = Buffer.from(String(a.mac), "hex");
      const expected = Buffer.from(anchorMac(key, seq, hash), "hex");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        problems.push({ seq, id: "", problem: "the signed head of the log was altered" });
      } else if (seq > headSeq) {
        problems.push({ seq, id: "", problem: `entr${seq > headSeq + 1 ? `ies ${headSeq + 1}-${seq} were` : `y ${seq} was`} removed from the end of the log` });
      } else if (seq < headSeq) {
        // Entries after the signed head were never signed: someone without the key added them.
        const unsigned = await database.client.execute({ sql: "SELECT seq, id FROM audit_log WHERE seq > ? ORDER BY seq", args: [seq] });
        for (const r of unsigned.rows) problems.push({ seq: Number(r.seq), id: String(r.id), problem: "was added without the server key" });
      } else if (hash !== prev) {
        problems.push({ seq, id: lastId, problem: "does not match the signed head of the log" });
      }
    }
    anchor = problems.length === before ? "ok" : "broken";
  }
  return { entries, head: prev, headSeq, anchor, problems };
}

/** The chain's newest entry (what a printed results sheet quotes): GENESIS_HASH when empty. */
export async function auditHead(database: Database): Promise<{ entries: number; headSeq: number; head: string }> {
  const [row] = await database.db
    .select({ seq: auditLog.seq, hash: auditLog.hash, entries: sql<number>`(SELECT count(*) FROM ${auditLog})` })
    .from(auditLog)
    .orderBy(desc(auditLog.seq))
    .limit(1);
  return row ? { entries: Number(row.entries), headSeq: row.seq, head: row.hash } : { entries: 0, headSeq: 0, head: GENESIS_HASH };
}

/** `user:<id> <matric> <name>` for an entry's target (just the id when the account is gone). */
export async function userTarget(database: Database, userId: string): Promise<string> {
  const [row] = await database.db.select({ name: users.name, matricNumber: users.matricNumber }).from(users).where(eq(users.id, userId));
  return row ? `user:${userId} ${row.matricNumber} ${row.name}` : `user:${userId}`;
}
