import { describe, expect, it } from "vitest";
import { messages } from "./messages.ts";
import { stationTimingProblem } from "./stations.ts";

const window = { startTime: 1_000, endTime: 10_000 };
const GRACE = 600;

describe("station ballot timing (decision 0002's grace rule)", () => {
  it("takes a ballot cast inside the window, start and end inclusive", () => {
    expect(stationTimingProblem(1_000, 1_000, window, GRACE)).toBeNull();
    expect(stationTimingProblem(10_000, 10_000, window, GRACE)).toBeNull();
  });
  it("refuses one cast before the start or after the end", () => {
    expect(stationTimingProblem(999, 5_000, window, GRACE)).toBe(messages.votingNotStarted);
    expect(stationTimingProblem(10_001, 10_001, window, GRACE)).toBe(messages.votingEnded);
  });
  it("delivers one cast before the close up to the grace period after it, not later", () => {
    expect(stationTimingProblem(9_999, 10_600, window, GRACE)).toBeNull();
    expect(stationTimingProblem(9_999, 10_601, window, GRACE)).toBe(messages.votingEnded);
  });
});
