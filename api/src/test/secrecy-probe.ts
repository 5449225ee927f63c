/**
 * What an attacker holding a copy of the database files can learn about how each voter
 * voted: the tools of api/src/services/votes/secrecy.test.ts.
 *
 * - `voterTiedRows`: every row of every table that names a voter (by id or matriculation
 *   number in any column), labelled with that voter's choice.
 * - `bestFeatureAccuracy`: for each column's value and each value's length (and the row's
 *   total length), the held-out accuracy of the best classifier on that one feature: the
 *   majority choice per feature value learnt on half the voters, tested on the other half
 *   (both ways). A value never seen in training gets the training majority, so a unique
 *   value (an id, a ciphertext) scores exactly the baseline; a feature that carries the
 *   choice (a shared fingerprint, a length) scores near 100 %.
 * - `chanceBound`: what the baseline (always the majority) can reach by luck, 3.5 sigma up.
 * - `replayWal`: replays a copy of `db` + `db-wal` commit by commit, as the attacker did,
 *   and reports what each commit added to participations and ballots.
 */
import { createClient, type Client } from "@libsql/client";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface LabelledRow {
  table: string;
  voter: string;
  label: string;
  values: Record<string, unknown>;
}

/** `voters`: voter id -> { matric, label }. */
export async function voterTiedRows(client: Client, voters: Map<string, { matric: string; label: string }>): Promise<LabelledRow[]> {
  const byToken = new Map<string, string>();
  for (const [id, v] of voters) {
    byToken.set(id, id);
    byToken.set(v.matric, id);
  }
  const tables = await client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'");
  const out: LabelledRow[] = [];
  for (const { name } of tables.rows) {
    const table = String(name);
    const rows = await client.execute(`SELECT * FROM "${table}"`);
    for (const row of rows.rows) {
      const values: Record<string, unknown> = {};
      let voter: string | undefined;
      rows.columns.forEach((col, i) => {
        const value = row[i];
        values[col] = value instanceof ArrayBuffer ? Buffer.from(value).toString("hex") : value;
        if (typeof value === "string" && byToken.has(value)) voter = byToken.get(value);
      });
      if (voter) out.push({ table, voter, label: voters.get(voter)!.label, values });
    }
  }
  return out;
}

/** A feature of a row as a string: a column's value, its length, or the row's total length. */
export function featuresOf(row: LabelledRow): Map<string, string> {
  const f = new Map<string, string>();
  let total = 0;
  for (const [col, value] of Object.entries(row.values)) {
    const text = value === null ? "\u0000null" : String(value);
    f.set(`${row.table}.${col}`, text);
    f.set(`length(${row.table}.${col})`, String(value === null ? -1 : text.length));
    total += value === null ? 0 : text.length;
  }
  f.set(`length(${row.table} row)`, String(total));
  return f;
}

const majority = (labels: string[]): string => {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
};

export interface FeatureScore {
  feature: string;
  accuracy: number;
  baseline: number;
  /** chanceBound of the rows' labels: what a feature that says nothing stays under. */
  bound: number;
  n: number;
}

/**
 * Two-fold held-out accuracy of the per-value majority classifier for every feature of
 * every table, with rows split by voter (even/odd position in `voterOrder`).
 */
export function featureScores(rows: LabelledRow[], voterOrder: string[]): FeatureScore[] {
  const fold = new Map(voterOrder.map((v, i) => [v, i % 2]));
  const byFeature = new Map<string, { value: string; label: string; fold: number }[]>();
  for (const row of rows) {
    for (const [feature, value] of featuresOf(row)) {
      let list = byFeature.get(feature);
      if (!list) byFeature.set(feature, (list = []));
      list.push({ value, label: row.label, fold: fold.get(row.voter) ?? 0 });
    }
  }
  const scores: FeatureScore[] = [];
  for (const [feature, items] of byFeature) {
    let hits = 0;
    let baseHits = 0;
    for (const test of [0, 1]) {
      const train = items.filter((x) => x.fold !== test);
      const held = items.filter((x) => x.fold === test);
      if (train.length === 0) continue;
      const fallback = majority(train.map((x) => x.label));
      const perValue = new Map<string, string[]>();
      for (const x of train) {
        const l = perValue.get(x.value);
        if (l) l.push(x.label);
        else perValue.set(x.value, [x.label]);
      }
      for (const x of held) {
        const seen = perValue.get(x.value);
        if ((seen ? majority(seen) : fallback) === x.label) hits++;
        if (fallback === x.label) baseHits++;
      }
    }
    const bound = chanceBound(items.map((x) => x.label));
    scores.push({ feature, accuracy: hits / items.length, baseline: baseHits / items.length, bound, n: items.length });
  }
  return scores.sort((a, b) => b.accuracy - b.baseline - (a.accuracy - a.baseline));
}

/** The most a no-information guess reaches by luck: the majority share plus 3.5 standard errors. */
export function chanceBound(labels: string[]): number {
  const p = labels.filter((l) => l === majority(labels)).length / labels.length;
  return p + 3.5 * Math.sqrt((p * (1 - p)) / labels.length);
}

export interface CommitDelta {
  /** voter_id|position_id of participations this commit added. */
  participations: string[];
  /** candidate ids (or the choice kind) of ballots this commit added. */
  ballots: string[];
  /** ids of pending ballots this commit removed (the mixer's; they lead back to the votes' commits). */
  pendingRemoved: string[];
}

/** Byte offsets in a WAL file just after each commit frame (sqlite.org/fileformat2.html#walformat). */
export function walCommitOffsets(wal: Buffer): number[] {
  if (wal.length < 32) return [];
  const pageSize = wal.readUInt32BE(8);
  const frame = 24 + pageSize;
  const out: number[] = [];
  // Frames left over from before the WAL restarted carry the old salts: the log ends there.
  for (let at = 32; at + frame <= wal.length; at += frame) {
    if (wal.readUInt32BE(at + 8) !== wal.readUInt32BE(16) || wal.readUInt32BE(at + 12) !== wal.readUInt32BE(20)) break;
    if (wal.readUInt32BE(at + 4) !== 0) out.push(at + frame);
  }
  return out;
}

async function snapshot(dbFile: string): Promise<{ parts: Set<string>; ballots: Map<string, string>; pending: Set<string> }> {
  const client = createClient({ url: `file:${dbFile}` });
  try {
    const parts = await client.execute("SELECT voter_id, position_id FROM participations");
    // SELECT *: a candidate ballot names its candidate, others their choice kind (any schema).
    const ballots = await client.execute("SELECT * FROM ballots");
    const pending = await client.execute("SELECT id FROM pending_ballots");
    return {
      pending: new Set(pending.rows.map((r) => String(r.id))),
      parts: new Set(parts.rows.map((r) => `${r.voter_id}|${r.position_id}`)),
      ballots: new Map(ballots.rows.map((r) => [String(r.id), String(r.candidate_id ?? r.choice)])),
    };
  } finally {
    client.close();
  }
}

/**
 * Replays a copy of a database file and its WAL commit by commit: the state with the first
 * k commits of the WAL applied, for every k, and what each commit added.
 */
export async function replayWal(dbCopy: string, walCopy: string): Promise<CommitDelta[]> {
  const wal = existsSync(walCopy) ? readFileSync(walCopy) : Buffer.alloc(0);
  const work = mkdtempSync(join(tmpdir(), "evoting-wal-replay-"));
  try {
    const deltas: CommitDelta[] = [];
    let before: Awaited<ReturnType<typeof snapshot>> | null = null;
    for (const end of [0, ...walCommitOffsets(wal)]) {
      const file = join(work, `state-${end}.db`);
      copyFileSync(dbCopy, file);
      if (end > 0) writeFileSync(`${file}-wal`, wal.subarray(0, end));
      const state = await snapshot(file);
      if (before) {
        deltas.push({
          participations: [...state.parts].filter((p) => !before!.parts.has(p)),
          ballots: [...state.ballots].filter(([id]) => !before!.ballots.has(id)).map(([, c]) => c),
          pendingRemoved: [...before.pending].filter((id) => !state.pending.has(id)),
        });
      }
      before = state;
    }
    return deltas;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
