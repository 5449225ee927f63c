/**
 * Fills a database file directly (before the server starts), far faster than through the
 * API: voters get the keyed hash of their date of birth the server would store (under the
 * bench server's BALLOT_KEY, docs/decisions/0007), sessions are rows
 * whose token we know (only its SHA-256 is stored, as the server does), and ballots are
 * inserted with their participations and tallies in big set-based statements so the
 * tallies stay equal to a recount.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@libsql/client";
import { openDatabase } from "../../api/src/db/client.ts";
import { keysFromMaster } from "../../api/src/security/keys.ts";
import { sealChoice } from "../../api/src/services/votes/cast.ts";
import { hashDateOfBirth } from "../../api/src/security/passwords.ts";
import { checkTallies } from "../../api/src/services/accountability/tally-check.ts";
import { BALLOT_KEY } from "./server.ts";

export const VOTER_DOB = "20020515";
const HOUR = 3_600_000;

export const matricOf = (i: number) => `2024/5570${String(i).padStart(6, "0")}`;
export const voterIdOf = (i: number) => `bench-voter-${String(i).padStart(6, "0")}`;
export const positionIdOf = (p: number) => `bench-position-${p}`;
export const candidateIdOf = (p: number, k: number) => `bench-position-${p}-candidate-${k}`;
/** Known bearer tokens (the server only ever sees their hash in the database). */
export const tokenOf = (i: number) => `bench-token-${String(i).padStart(6, "0")}-${"x".repeat(24)}`;
const hashToken = (t: string) => createHash("sha256").update(t).digest("base64url");

export function tempDir(label: string): { dir: string; dbPath: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), `evoting-bench-${label}-`));
  mkdirSync(dir, { recursive: true });
  return { dir, dbPath: join(dir, "bench.db"), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface SeedOptions {
  voters: number;
  positions?: number;
  candidatesPerPosition?: number;
  /** Insert a live session with tokenOf(i) for every voter. */
  sessions?: boolean;
  /** Fill every voter's ballot for every position (voters x positions ballots). */
  ballotsForFirst?: number;
  now?: number;
  /**
   * The election's ballot batch; left out, the installation's default. A bench that follows
   * each vote into the tallies (a broadcast's delay, a crash's exactly-once count) sets 1.
   */
  ballotBatch?: number;
}

export interface Seeded {
  positions: { id: string; candidates: string[] }[];
  voters: number;
}

export async function seed(dbPath: string, opts: SeedOptions): Promise<Seeded> {
  const { voters, positions = 5, candidatesPerPosition = 3, sessions = false, ballotsForFirst = 0, now = Date.now() } = opts;
  const database = await openDatabase({ url: `file:${dbPath}`, synchronous: "NORMAL" });
  try {
    const c = database.client;
    // Each voter's hash is bound to their matric number, so it is computed per voter (µs each).
    const dobKey = keysFromMaster(Buffer.from(BALLOT_KEY, "hex")).dob;
    const dobHashes = Array.from({ length: voters }, (_, k) => hashDateOfBirth(dobKey, matricOf(k + 1), VOTER_DOB));
    await c.execute({
      sql: `INSERT INTO users (id, name, matric_number, role, dob_hash, created_at)
            SELECT printf('bench-voter-%06d', key + 1), 'Voter ' || (key + 1), printf('2024/5570%06d', key + 1), 'voter', value, ? FROM json_each(?)`,
      args: [now, JSON.stringify(dobHashes)],
    });
    const out: Seeded = { positions: [], voters };
    const stmts = [];
    for (let p = 1; p <= positions; p++) {
      stmts.push({
        sql: "INSERT INTO positions (id, title, start_time, end_time, created_at) VALUES (?, ?, ?, ?, ?)",
        args: [positionIdOf(p), `Position ${p}`, now - 2 * HOUR, now + 24 * HOUR, now],
      });
      const cands = [];
      for (let k = 0; k < candidatesPerPosition; k++) {
        cands.push(candidateIdOf(p, k));
        stmts.push({
          sql: "INSERT INTO candidates (id, position_id, name, photo_id, vote_count, created_at) VALUES (?, ?, ?, NULL, 0, ?)",
          args: [candidateIdOf(p, k), positionIdOf(p), `Candidate ${p}.${k}`, now],
        });
      }
      out.positions.push({ id: positionIdOf(p), candidates: cands });
    }
    await c.batch(stmts, "write");
    if (opts.ballotBatch !== undefined) await c.execute({ sql: "UPDATE election_settings SET ballot_batch = ? WHERE id = 1", args: [opts.ballotBatch] });

    if (sessions) {
      for (let start = 1; start <= voters; start += 500) {
        const end = Math.min(voters, start + 499);
        const values: string[] = [];
        const args: (string | number)[] = [];
        for (let i = start; i <= end; i++) {
          values.push("(?, ?, ?, ?)");
          args.push(hashToken(tokenOf(i)), voterIdOf(i), now, now + 24 * HOUR);
        }
        await c.execute({ sql: `INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ${values.join(",")}`, args });
      }
    }

    if (ballotsForFirst > 0) {
      // Participation filler: nothing unseals it in these benches, but it has the one length of
      // a real sealed choice (sealed under a throwaway key), as the server's start-up expects.
      const filler = sealChoice(keysFromMaster(randomBytes(32)), "-", "-", { k: "candidate", c: null, b: null });
      await c.execute({
        sql: `INSERT INTO participations (voter_id, position_id, sealed_choice)
              SELECT u.id, p.id, ? FROM users u CROSS JOIN positions p
               WHERE u.role = 'voter' AND u.id <= printf('bench-voter-%06d', ?)`,
        args: [filler, ballotsForFirst],
      });
      await c.execute({
        sql: `INSERT INTO ballots (id, position_id, choice, candidate_id)
              SELECT lower(hex(randomblob(16))), position_id, 'candidate', position_id || '-candidate-' || (abs(random()) % CAST(? AS INTEGER))
                FROM participations`,
        args: [candidatesPerPosition],
      });
      await c.execute({
        sql: "INSERT INTO turnout_hours (hour, votes) SELECT ?, count(*) FROM participations WHERE true ON CONFLICT (hour) DO UPDATE SET votes = excluded.votes",
        args: [Math.floor(now / HOUR) * HOUR],
      });
      await c.execute(`UPDATE candidates SET vote_count = b.n
                         FROM (SELECT candidate_id, count(*) AS n FROM ballots WHERE candidate_id IS NOT NULL GROUP BY candidate_id) b
                        WHERE b.candidate_id = candidates.id`);
      await c.execute("UPDATE meta SET value = value + 1 WHERE key = 'results_version'");
    }
    await c.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    return out;
  } finally {
    database.close();
  }
}

/**
 * The audit's consistency check (services/accountability/tally-check.ts) on a database file, as the benches report
 * it, with the bench server's keys (a kill between a mixer pass's commits and its last leaves
 * applied ballots' pending rows behind, which only the key tells from pending ones).
 */
export async function recount(client: Client) {
  const report = await checkTallies({ client }, keysFromMaster(Buffer.from(BALLOT_KEY, "hex")));
  const tallied = await client.execute("SELECT coalesce(sum(vote_count), 0) AS n FROM candidates");
  return {
    participations: report.participations,
    ballots: report.ballots,
    pending: report.pending,
    appliedPending: report.appliedPending,
    mismatchedPositions: report.positionMismatches.length,
    tallied: Number(tallied.rows[0].n),
    badTallies: report.tallyMismatches.length,
    integrity: report.integrity,
  };
}
