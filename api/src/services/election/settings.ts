/**
 * Election settings: one stored row, seeded with the baseline's fixed election (docs/product.md), read
 * by every signed-in page (banner, countdown), the login page (title only), results
 * visibility and ballot order.
 */
import { nominationWindowProblem, type ElectionSettings, type ElectionSettingsInput, type Position } from "@evoting/shared";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { electionSettings } from "../../db/schema.ts";
import { CURRENT_ELECTION_SQL } from "../../db/elections.ts";
import { fingerprint, type Keys } from "../../security/keys.ts";
import { processClock, type Clock } from "../../clock.ts";

const toIso = (ms: unknown) => new Date(Number(ms)).toISOString();

/** How long a copy is served without reading the row again. */
const FRESH_MS = 1_000;

/**
 * The election settings of one database, from memory (`Deps.electionSettings`). Every results
 * request and vote page reads them: a copy is served for up to a second (the staleness the
 * live results already allow when another process writes), and forgotten at once when this
 * process writes them: every write to `election_settings` calls `invalidate()` after its
 * commit. Whether results are hidden is still decided per request against the clock, so the
 * close is exact.
 */
export class ElectionSettingsCache {
  private held: { settings: ElectionSettings; at: number } | null = null;
  /** Moves whenever the copy is forgotten: a read that started before does not store. */
  private generation = 0;

  constructor(
    private readonly database: Database,
    /** Measures a copy's age (processClock by default). */
    private readonly elapsed: Clock = processClock,
  ) {}

  async get(): Promise<ElectionSettings> {
    const { held, generation } = this;
    if (held && this.elapsed.now() - held.at < FRESH_MS) return held.settings;
    const settings = await readElection(this.database);
    if (generation === this.generation) this.held = { settings, at: this.elapsed.now() };
    return settings;
  }

  /** Forgets the copy: called after any write to the settings in this process. */
  invalidate(): void {
    this.held = null;
    this.generation++;
  }
}

async function readElection(database: Database): Promise<ElectionSettings> {
  const [row] = await database.db.select().from(electionSettings).where(eq(electionSettings.id, 1));
  if (!row) throw new Error("election_settings has no row: was migration 0004 applied?");
  return {
    title: row.title,
    subtitle: row.subtitle,
    startTime: toIso(row.startTime),
    endTime: toIso(row.endTime),
    resultsVisibility: row.resultsVisibility === "after-close" ? "after-close" : "live",
    ballotOrder: row.ballotOrder === "random" ? "random" : "fixed",
    unopposed: row.unopposed === "yes-no" ? "yes-no" : "single",
    ballotBatch: row.ballotBatch,
    nominationsStart: row.nominationsStart === null ? null : toIso(row.nominationsStart),
    nominationsEnd: row.nominationsEnd === null ? null : toIso(row.nominationsEnd),
  };
}

/**
 * The nomination window a PUT leaves: a field it omits keeps its stored value, null clears it.
 * Answers the window in epoch ms, or the reason it is refused.
 */
export function mergedNominationWindow(input: ElectionSettingsInput, current: ElectionSettings): { start: number | null; end: number | null } | string {
  const pick = (sent: string | null | undefined, stored: string | null) => {
    const iso = sent === undefined ? stored : sent;
    return iso === null ? null : Date.parse(iso);
  };
  const start = pick(input.nominationsStart, current.nominationsStart);
  const end = pick(input.nominationsEnd, current.nominationsEnd);
  return nominationWindowProblem(start, end, Date.parse(input.startTime)) ?? { start, end };
}

/** A settings change refused by a rule that needs the stored values (answered 400). */
export class SettingsRefused extends Error {}

/** Replaces the settings (a `ballotBatch` or nomination time left out keeps its value); answers what they were and what they are now (for the audit). */
export async function saveElection(
  { database, electionSettings }: { database: Database; electionSettings: ElectionSettingsCache },
  input: ElectionSettingsInput,
  now: number,
) {
  const before = await readElection(database);
  const nominations = mergedNominationWindow(input, before);
  if (typeof nominations === "string") throw new SettingsRefused(nominations);
  await database.writer.submit([
    {
      sql: `UPDATE election_settings SET title = ?, subtitle = ?, start_time = ?, end_time = ?,
              results_visibility = ?, ballot_order = ?, unopposed = ?, ballot_batch = coalesce(?, ballot_batch),
              nominations_start = ?, nominations_end = ?, updated_at = ? WHERE id = 1`,
      args: [
        input.title,
        input.subtitle,
        Date.parse(input.startTime),
        Date.parse(input.endTime),
        input.resultsVisibility,
        input.ballotOrder,
        input.unopposed,
        input.ballotBatch ?? null,
        nominations.start,
        nominations.end,
        now,
      ],
    },
    // The current election's row follows its settings while it is open (db/elections.ts).
    {
      sql: `UPDATE elections SET title = ?, subtitle = ?, start_time = ?, end_time = ? WHERE id = ${CURRENT_ELECTION_SQL} AND state = 'open'`,
      args: [input.title, input.subtitle, Date.parse(input.startTime), Date.parse(input.endTime)],
    },
  ]);
  electionSettings.invalidate();
  return { before, after: await electionSettings.get() };
}

/** "title: 'A' -> 'B'; ballotOrder: fixed -> random": what changed, for a person reading the audit log. */
export function describeChanges<T extends object>(before: T, after: T): string {
  const changed = (Object.keys(after) as (keyof T)[]).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (changed.length === 0) return "no change";
  return changed.map((k) => `${String(k)}: ${JSON.stringify(before[k])} -> ${JSON.stringify(after[k])}`).join("; ");
}

/**
 * 'random' ballot order: each voter's own order, stable across visits and devices (an HMAC of
 * voter and candidate under the server's key), so no candidate gains from being listed first
 * and a voter's list never reshuffles under their thumb.
 */
export function orderForVoter(keys: Keys, voterId: string, list: Position[]): Position[] {
  return list.map((p) => {
    const rank = new Map(p.candidates.map((c) => [c._id, fingerprint(keys, `ballot-order:${voterId}:${c._id}`)]));
    return { ...p, candidates: [...p.candidates].sort((a, b) => (rank.get(a._id)! < rank.get(b._id)! ? -1 : 1)) };
  });
}
