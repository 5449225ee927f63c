/**
 * How a position's ballot method reads in the PWA (lists, ballots, results), and the method
 * fields a position form sends. The rules themselves are shared/src/ballot-methods.ts.
 */
import { DEFAULT_PASS_THRESHOLD, type BallotMethod, type CountRule, type Position } from "@evoting/shared";

export const methodNames: Record<BallotMethod, string> = {
  single: "Single choice",
  multi: "Multiple seats",
  ranked: "Ranked choice",
  referendum: "Referendum",
};

export const ruleNames: Record<CountRule, string> = {
  plurality: "Most votes",
  "instant-runoff": "Instant-runoff",
  "scottish-stv": "Scottish STV",
};

const seatsText = (seats: number) => `${seats} seat${seats === 1 ? "" : "s"}`;

/** 'Ranked choice (2 seats)', 'Referendum', 'Single choice'. */
export function methodSummary(p: Pick<Position, "method" | "seats">): string {
  const method = p.method ?? "single";
  return method === "multi" || method === "ranked" ? `${methodNames[method]} (${seatsText(p.seats ?? 1)})` : methodNames[method];
}

/** A threshold as the admin reads it: 'More Yes than No', 'More than two thirds Yes', 'More than 60% Yes'. */
export function thresholdText(threshold: number = DEFAULT_PASS_THRESHOLD): string {
  if (threshold === DEFAULT_PASS_THRESHOLD) return "More Yes than No";
  const named = passThresholds.find((t) => Math.abs(t.value - threshold) < 1e-9);
  if (named) return named.label;
  return `More than ${Math.round(threshold * 1000) / 10}% Yes`;
}

/** The thresholds offered on the position form (the API takes any share between 0 and 1). */
export const passThresholds = [
  { value: DEFAULT_PASS_THRESHOLD, label: "More Yes than No" },
  { value: 2 / 3, label: "More than two thirds Yes" },
  { value: 3 / 4, label: "More than three quarters Yes" },
] as const;

/** What the position form holds for the method (strings where the admin types). */
export interface MethodValues {
  method: BallotMethod;
  seats: string;
  question: string;
  passThreshold: number;
  liveCount: boolean;
}

/** A new several-seat or ranked position starts at one seat: a second seat is the admin's choice, never the form's. */
export const defaultMethodValues: MethodValues = { method: "single", seats: "1", question: "", passThreshold: DEFAULT_PASS_THRESHOLD, liveCount: false };

export function methodValuesOf(p: Position | null): MethodValues {
  if (!p || !p.method || p.method === "single") return defaultMethodValues;
  return {
    method: p.method,
    seats: String(p.seats ?? 1),
    question: p.question ?? "",
    passThreshold: p.passThreshold ?? DEFAULT_PASS_THRESHOLD,
    liveCount: Boolean(p.liveCount),
  };
}

/**
 * The method fields a create or edit sends: none for a single choice left alone (the baseline's
 * request, unchanged), otherwise only the fields the method takes. Seats are parsed here so the
 * shared schema reports a non-number under the field.
 */
export function methodBody(values: MethodValues, current: BallotMethod = "single") {
  switch (values.method) {
    case "single":
      return current === "single" ? {} : { method: "single" as const };
    case "multi":
      return { method: values.method, seats: values.seats.trim() === "" ? Number.NaN : Number(values.seats) };
    case "ranked":
      return { method: values.method, seats: values.seats.trim() === "" ? Number.NaN : Number(values.seats), liveCount: values.liveCount };
    case "referendum":
      return { method: values.method, question: values.question, passThreshold: values.passThreshold };
  }
}
