/**
 * The integrity check's look at one snapshot of the database (ballot-integrity.ts runs it):
 * every participation matches exactly one ballot (counted or still pending) with the same
 * position and choice, every ballot exactly one participation, every ballot's MAC is its own,
 * the tallies equal the ballots (./tally-check.ts), and every declared archive is as sealed.
 * Reads nothing itself but through `checkBallotMatches`: CPU work on rows already read, so the
 * count thread (services/results/count-thread.ts) can run it for a database file.
 */
import type { Database } from "../../db/client.ts";
import { decodeMarks } from "@evoting/shared";
import type { Keys } from "../../security/keys.ts";
import { ballotMacMatches } from "../votes/ballot-mac.ts";
import { unsealChoice, type ChoiceKind } from "../votes/cast.ts";
import { appliedPendingByPosition, unsealPending } from "../votes/mixer.ts";
import { TALLY_READS, tallyReport, type ReadRows, type TallyCheckReport } from "./tally-check.ts";
import { ARCHIVE_READS, archiveProblems } from "../election/archive-seal.ts";

export interface BallotMatchReport {
  ok: boolean;
  /** Ballots applied before ballot MACs (migration 0014): checked against their participations only. */
  unsigned: number;
  problems: string[];
}

interface Choice {
  positionId: string;
  kind: ChoiceKind;
  candidateId: string | null;
  /** multi and ranked: the marks, decoded (shared `decodeMarks`), so padding never decides a match; null when they do not decode */
  marks: string[] | null;
}

/** Stored or sealed marks, decoded; null for text that is not the shared encoding (an edited ballot). */
function marksOf(stored: string | null | undefined): string[] | null {
  try {
    return decodeMarks(stored);
  } catch {
    return null;
  }
}

const sameChoice = (a: Choice, b: Choice) =>
  a.positionId === b.positionId &&
  a.kind === b.kind &&
  (a.candidateId ?? null) === (b.candidateId ?? null) &&
  a.marks !== null &&
  b.marks !== null &&
  JSON.stringify(a.marks) === JSON.stringify(b.marks);
const bucketOf = (c: Choice) => JSON.stringify([c.positionId, c.kind, c.candidateId ?? null, c.marks]);
/** Unsealing is CPU work: the event loop gets a turn this often. */
const YIELD_EVERY = 1_000;
const breathe = (i: number) => (i % YIELD_EVERY === YIELD_EVERY - 1 ? new Promise((resolve) => setImmediate(resolve)) : null);

/** What the ballot match reads, in the order `matchBallots` takes them. */
const BALLOT_READS: readonly string[] = [
  "SELECT voter_id, position_id, sealed_choice FROM participations",
  "SELECT id, position_id, sealed FROM pending_ballots",
  "SELECT id, position_id, choice, candidate_id, marks, mac FROM ballots",
  "SELECT id FROM candidates",
];

/** Participations against ballots and pending ballots, one to one, and each ballot's MAC. */
export async function checkBallotMatches(database: Pick<Database, "client">, keys: SnapshotKeys): Promise<BallotMatchReport> {
  // One read batch: the mixer may commit meanwhile, and a ballot must not be seen both pending
  // and applied, or neither.
  return matchBallots(keys, await database.client.batch([...BALLOT_READS], "read"));
}

/** The match, from the results of `BALLOT_READS`, all read in one snapshot. */
async function matchBallots(keys: SnapshotKeys, [participations, pending, ballots, candidates]: readonly ReadRows[]): Promise<BallotMatchReport> {
  const problems: string[] = [];
  const candidateIds = new Set(candidates.rows.map((r) => String(r.id)));

  // What each participation says its ballot is. Votes sealed before ballot ids existed (the
  // legacy re-seal) name only a choice: they may match any one ballot of that choice.
  const expected = new Map<string, Choice>();
  const legacy = new Map<string, number>();
  let unreadable = 0;
  for (const [i, r] of participations.rows.entries()) {
    await breathe(i);
    let held;
    try {
      held = unsealChoice(keys, String(r.voter_id), String(r.position_id), String(r.sealed_choice));
    } catch {
      unreadable++;
      continue;
    }
    // A verifiable vote's ballot is on its position's board, which names no voter: the tally
    // check counts those ballots against these participations, position by position.
    if (held.verifiable) continue;
    const choice: Choice = { positionId: held.positionId, kind: held.kind, candidateId: held.candidateId, marks: held.marks };
    if (held.ballotId === null) legacy.set(bucketOf(choice), (legacy.get(bucketOf(choice)) ?? 0) + 1);
    else if (expected.has(held.ballotId)) problems.push(`Ballot ${held.ballotId} is named by more than one participation`);
    else expected.set(held.ballotId, choice);
  }
  if (unreadable > 0) problems.push(`${unreadable} participation${unreadable === 1 ? " does" : "s do"} not unseal with the server key (changed, or sealed under another key)`);

  const matched = new Set<string>();
  let unsigned = 0;
  for (const [i, r] of ballots.rows.entries()) {
    await breathe(i);
    const id = String(r.id);
    const storedMarks = r.marks === null ? null : String(r.marks);
    const ballot: Choice = {
      positionId: String(r.position_id),
      kind: String(r.choice) as ChoiceKind,
      candidateId: r.candidate_id === null ? null : String(r.candidate_id),
      marks: marksOf(storedMarks),
    };
    const mac = r.mac === null ? null : String(r.mac);
    if (mac === null) unsigned++;
    else if (!ballotMacMatches(keys, { id, positionId: ballot.positionId, choice: ballot.kind, candidateId: ballot.candidateId, marks: storedMarks }, mac)) problems.push(`Ballot ${id} (position ${ballot.positionId}) was changed or forged: its MAC does not match`);
    const claim = expected.get(id);
    if (claim) {
      matched.add(id);
      if (!sameChoice(claim, ballot)) problems.push(`Ballot ${id} (position ${ballot.positionId}) does not hold the choice sealed in its participation`);
      continue;
    }
    const left = legacy.get(bucketOf(ballot)) ?? 0;
    if (mac === null && left > 0) legacy.set(bucketOf(ballot), left - 1);
    else problems.push(`Ballot ${id} (position ${ballot.positionId}) has no participation`);
  }

  // A participation's ballot that is not counted must still be waiting for the mixer.
  for (const [i, r] of pending.rows.entries()) {
    await breathe(i);
    const record = unsealPending(keys, String(r.id), String(r.sealed));
    if (!record) {
      problems.push(`Pending ballot ${String(r.id)} does not unseal with the server key`);
      continue;
    }
    if (matched.has(record.b)) continue; // applied; its pending row goes at the end of the pass
    // The mixer leaves such a ballot pending for ever: it would hold up the declaration unseen.
    const named = [...new Set([...(record.c ? [record.c] : []), ...(marksOf(record.r) ?? [])])];
    for (const gone of named.filter((id) => !candidateIds.has(id))) {
      problems.push(`Pending ballot ${String(r.id)} (position ${String(r.position_id)}) names candidate ${gone}, which no longer exists: it can never be counted`);
    }
    const claim = expected.get(record.b);
    if (!claim) problems.push(`Pending ballot ${String(r.id)} (position ${String(r.position_id)}) has no participation`);
    else if (!sameChoice(claim, { positionId: String(r.position_id), kind: record.k, candidateId: record.c, marks: marksOf(record.r) })) {
      problems.push(`Pending ballot ${String(r.id)} (position ${String(r.position_id)}) does not hold the choice sealed in its participation`);
    } else matched.add(record.b);
  }
  for (const [ballotId, claim] of expected) {
    if (!matched.has(ballotId)) problems.push(`Ballot ${ballotId} (position ${claim.positionId}), named by a participation, is neither counted nor pending`);
  }
  for (const [bucket, n] of legacy) {
    if (n > 0) problems.push(`${n} early participation${n === 1 ? "" : "s"} for position ${JSON.parse(bucket)[0]} match no ballot`);
  }
  return { ok: problems.length === 0, unsigned, problems };
}

/** The keys the snapshot's checks use: unsealing (participations, pending ballots) and the ballot and archive MACs. */
export type SnapshotKeys = Pick<Keys, "seal" | "ballot">;

/** Every read of the check's one snapshot, in the order `integrityOfReads` takes them. */
export const INTEGRITY_READS: readonly string[] = [...TALLY_READS, ...BALLOT_READS, ...ARCHIVE_READS];

/** What one snapshot shows: everything the check covers but the audit log's chain. */
export interface SnapshotFindings {
  tallies: TallyCheckReport;
  ballots: BallotMatchReport;
  archiveProblems: string[];
}

/**
 * The checks on the results of `INTEGRITY_READS`, all read in one snapshot; CPU work only
 * (unsealing every participation, a MAC per ballot), so it can run in the count thread. The
 * applied pending rows are told from the ballots read in the same snapshot.
 */
export async function integrityOfReads(keys: SnapshotKeys, rs: readonly ReadRows[]): Promise<SnapshotFindings> {
  const read = rs.slice(TALLY_READS.length, TALLY_READS.length + BALLOT_READS.length);
  const [archives, declarations] = rs.slice(TALLY_READS.length + BALLOT_READS.length);
  const applied = appliedPendingByPosition(keys, read[1].rows, new Set(read[2].rows.map((r) => String(r.id))));
  const tallies = tallyReport(rs, applied);
  const ballots = await matchBallots(keys, read);
  return { tallies, ballots, archiveProblems: archiveProblems(keys, archives.rows as Record<string, unknown>[], declarations.rows as Record<string, unknown>[]) };
}
