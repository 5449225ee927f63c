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
 * Never put a secret, a date of birth, or anything about how someone voted in an entry.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { Database } from "../db/client.ts";
import type { AppEnv, AuthUser, Deps } from "../deps.ts";
import { clientAddress } from "../http/auth.ts";

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

const tails = new WeakMap<Database, Promise<unknown>>();

/** Appends one entry. Resolves once it is committed. */
export async function appendAudit(
  database: Database,
  entry: AuditInput & { actor: AuditActor; address: string; at: number },
): Promise<AuditEntry> {
  const previous = tails.get(database) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => appendNow(database, entry));
  tails.set(database, run);
  return run;
}

async function appendNow(database: Database, entry: AuditInput & { actor: AuditActor; address: string; at: number }): Promise<AuditEntry> {
  for (let attempt = 0; ; attempt++) {
    const tip = await database.client.execute("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1");
    const prevHash = tip.rows[0] ? String(tip.rows[0].hash) : GENESIS_HASH;
    const seq = tip.rows[0] ? Number(tip.rows[0].seq) + 1 : 1;
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
    ]);
    if (inserted.rowsAffected === 1) return { ...full, seq, prevHash, hash };
    if (attempt > 20) throw new Error("Could not append to the audit log: the chain tip kept moving");
  }
}

export const actorOf = (user: Pick<AuthUser, "id" | "name" | "matricNumber">): AuditActor => ({
  id: user.id,
  name: user.name,
  matricNumber: user.matricNumber,
});

/** Records an action by the signed-in user of this request, with the request's address. */
export function audit(deps: Pick<Deps, "database" | "clock" | "config">, c: Context<AppEnv>, input: AuditInput) {
  return appendAudit(deps.database, {
    ...input,
    actor: actorOf(c.var.user),
    address: clientAddress(c, deps.config.trustProxy),
    at: deps.clock.now(),
  });
}

export interface ChainProblem {
  seq: number;
  id: string;
  problem: string;
}

/** Walks the whole chain; returns every row where it breaks (empty when intact). */
export async function verifyAuditChain(database: Database): Promise<{ entries: number; head: string; problems: ChainProblem[] }> {
  const rs = await database.client.execute(
    "SELECT seq, id, at, actor_id, actor_name, actor_matric, action, target, summary, address, prev_hash, hash FROM audit_log ORDER BY seq",
  );
  const problems: ChainProblem[] = [];
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
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
  }
  return { entries: rs.rows.length, head: prev, problems };
}
