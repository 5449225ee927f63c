/**
 * A referendum question passes when Yes is more than `passThreshold` of Yes + No (abstentions
 * are not part of the share): 0.5 is a simple majority, 2/3 a two-thirds majority. Strictly
 * above: an exact half (or exactly two thirds) does not pass; no Yes or No at all does not pass.
 */
export const DEFAULT_PASS_THRESHOLD = 0.5;

export interface ReferendumOutcome {
  yes: number;
  no: number;
  abstentions: number;
  passed: boolean;
}

export function referendumOutcome(yes: number, no: number, abstentions: number, passThreshold = DEFAULT_PASS_THRESHOLD): ReferendumOutcome {
  // yes / (yes + no) > t, compared without the division so an exact share is never rounded up.
  const passed = yes + no > 0 && yes > passThreshold * (yes + no);
  return { yes, no, abstentions, passed };
}
