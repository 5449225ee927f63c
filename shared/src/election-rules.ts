/**
 * Election rules both sides check, pure and written once: when a position's
 * window may be edited, who may vote for a position, and which choices its ballot offers.
 * Time is passed in (epoch ms) so every edge is testable with a fake clock.
 */
import { DEFAULT_BALLOT_BATCH, ELECTION_END, ELECTION_START, ELECTION_SUBTITLE, ELECTION_TITLE } from "./constants.ts";
import { messages } from "./messages.ts";
import type { ElectionSettings, UnopposedMode } from "./types.ts";

/** The baseline's fixed election (docs/product.md): a fresh install's settings (api/drizzle/0004_election.sql). */
export const SPEC_ELECTION: ElectionSettings = {
  title: ELECTION_TITLE,
  subtitle: ELECTION_SUBTITLE,
  startTime: ELECTION_START,
  endTime: ELECTION_END,
  resultsVisibility: "live",
  ballotOrder: "fixed",
  unopposed: "single",
  nominationsStart: null,
  nominationsEnd: null,
  ballotBatch: DEFAULT_BALLOT_BATCH,
};

export interface Window {
  startTime: number;
  endTime: number;
}

/**
 * Why a new window for a position is refused at `now`, or null when it is allowed.
 * - the start may change only before the position opens (it opens AT its start);
 * - the end may be extended (polling day runs late) and shortened, but never to before now
 *   (that would silently close a ballot voters are filling in), and never once the position
 *   has closed, its end plus `graceMs` (the server passes it; a form without it leaves that
 *   check to the server);
 * - the window stays start < end.
 * An unchanged value is never a change: forms send every field back.
 */
export function windowEditProblem(current: Window, next: Partial<Window>, now: number, graceMs?: number): string | null {
  const startTime = next.startTime ?? current.startTime;
  const endTime = next.endTime ?? current.endTime;
  // Closed (its end plus the offline grace): its votes and published receipts are final.
  if (graceMs !== undefined && endTime !== current.endTime && now >= current.endTime + graceMs) return messages.endLockedClosed;
  if (startTime !== current.startTime && now >= current.startTime) return messages.startLocked;
  if (endTime < current.endTime && endTime < now) return messages.endBeforeNow;
  if (endTime <= startTime) return messages.endAfterStart;
  return null;
}

/** Group labels compare without case or surrounding spaces: '300l' on the roll matches '300L'. */
const groupKey = (g: string) => g.trim().toLowerCase();

/** A position with no eligible groups is open to every voter; otherwise to voters in any of them. */
export function isEligible(eligibleGroups: readonly string[], voterGroups: readonly string[]): boolean {
  if (eligibleGroups.length === 0) return true;
  const mine = new Set(voterGroups.map(groupKey));
  return eligibleGroups.some((g) => mine.has(groupKey(g)));
}

/**
 * The one rule for "is this position a Yes/No vote": exactly one candidate stands AND the
 * election's 'unopposed' setting is 'yes-no'. The default, 'single', is the baseline (docs/product.md): a lone
 * candidate is an ordinary card ('Select one candidate for this position'). The vote route,
 * the station ballots, the results and (through the `yesNo` flag the API sets from this) the
 * vote card, the results screens and the CSV all follow it.
 */
export const isYesNoBallot = (candidateCount: number, unopposed: UnopposedMode): boolean =>
  unopposed === "yes-no" && candidateCount === 1;

/** Positions as a ballot shows them: `yesNo` set where the election decides them by Yes/No. */
export function markYesNo<P extends { candidates: readonly unknown[] }>(positions: readonly P[], unopposed: UnopposedMode): (P & { yesNo?: boolean })[] {
  return positions.map((p) => (isYesNoBallot(p.candidates.length, unopposed) ? { ...p, yesNo: true } : p));
}

export type BallotChoiceKind = "candidate" | "no" | "abstain";

/** Why a choice is not on this position's ballot, or null. 'Yes' is the sole candidate's id. */
export function choiceProblem(
  kind: BallotChoiceKind,
  ballot: { candidateCount: number; allowAbstain: boolean; unopposed: UnopposedMode },
): string | null {
  if (kind === "no" && !isYesNoBallot(ballot.candidateCount, ballot.unopposed)) return messages.noNeedsUnopposed;
  if (kind === "abstain" && !ballot.allowAbstain) return messages.abstainNotAllowed;
  return null;
}

/**
 * Whether results are withheld from this viewer at `now`: with 'after-close' visibility,
 * voters see no tallies until the election window has ended AND every position has closed
 * (`positionsClosedAt`: the latest position end plus the offline grace), since a position may
 * take votes after the election's own end; admins and observers always see them.
 */
export function resultsHiddenFrom(
  settings: { resultsVisibility: "live" | "after-close"; endTime: string },
  viewerCanSeeAdmin: boolean,
  now: number,
  positionsClosedAt = -Infinity,
): boolean {
  return settings.resultsVisibility === "after-close" && !viewerCanSeeAdmin && now < Math.max(Date.parse(settings.endTime), positionsClosedAt);
}
