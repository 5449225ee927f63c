/** Election timing and position status state machines (docs/product.md, Rules). Pure; time is passed in. */

export type ElectionPhase = "before_start" | "active" | "ended";
export type PositionStatus = "upcoming" | "active" | "ended";

export function electionPhase(now: number, end: number, start?: number): ElectionPhase {
  if (start !== undefined && now < start) return "before_start";
  return now < end ? "active" : "ended";
}

export interface CountdownParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export function countdownParts(msLeft: number): CountdownParts {
  const total = Math.max(0, Math.floor(msLeft / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3_600),
    minutes: Math.floor((total % 3_600) / 60),
    seconds: total % 60,
  };
}

export const pad2 = (n: number): string => String(n).padStart(2, "0");

export interface Countdown {
  phase: ElectionPhase;
  label: "STARTS IN" | "ENDS IN" | null;
  parts: CountdownParts | null;
}

/** What the banner's countdown tile shows at `now`. */
export function countdown(now: number, end: number, start?: number): Countdown {
  const phase = electionPhase(now, end, start);
  if (phase === "before_start") return { phase, label: "STARTS IN", parts: countdownParts(start! - now) };
  if (phase === "active") return { phase, label: "ENDS IN", parts: countdownParts(end - now) };
  return { phase, label: null, parts: null };
}

/** Active between start and end inclusive (docs/product.md, Rules). */
export function positionStatus(now: number, startTime: number, endTime: number): PositionStatus {
  if (now < startTime) return "upcoming";
  if (now > endTime) return "ended";
  return "active";
}
