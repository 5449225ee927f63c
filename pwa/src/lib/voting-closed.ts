/**
 * What a page says between a close and the end of the offline grace: voting is closed, a vote
 * cast offline before the close still arrives until the grace ends, and what follows it.
 */
import { formatTime } from "./format";

/**
 * "Voting closed at 21:51; votes cast offline before the close are accepted until 22:01; then
 * receipts and the full count." for a close at `end` while `now` is within the grace; null
 * before the close and after the grace. Without the grace (settings from an older server) the
 * sentence says the votes are still being accepted, without a time.
 */
export function votingClosedText(end: string | number, graceMinutes: number | undefined, now: number): string | null {
  const then = "receipts and the full count";
  const closedAt = new Date(end).getTime();
  if (Number.isNaN(closedAt) || now < closedAt) return null;
  if (graceMinutes === undefined) return `Voting closed at ${formatTime(closedAt)}; votes cast offline before the close are still being accepted; then ${then}.`;
  const until = closedAt + graceMinutes * 60_000;
  if (now >= until) return null;
  return `Voting closed at ${formatTime(closedAt)}; votes cast offline before the close are accepted until ${formatTime(until)}; then ${then}.`;
}

/**
 * The short form for a ranked position's card: "Voting closed at 21:51; the full count follows at
 * 22:01, after the grace for votes cast offline." Null outside the grace, as above.
 */
export function fullCountText(end: string | number, graceMinutes: number | undefined, now: number): string | null {
  const closedAt = new Date(end).getTime();
  if (Number.isNaN(closedAt) || now < closedAt) return null;
  if (graceMinutes === undefined) return `Voting closed at ${formatTime(closedAt)}; the full count follows the grace for votes cast offline.`;
  const until = closedAt + graceMinutes * 60_000;
  if (now >= until) return null;
  return `Voting closed at ${formatTime(closedAt)}; the full count follows at ${formatTime(until)}, after the grace for votes cast offline.`;
}
