import { describe, expect, it } from "vitest";
import { countdown, pad2, positionStatus } from "./election.ts";
import { formatPercent, leadersByPosition, rankColour, topCandidates, turnout, votePercentage } from "./results.ts";

const start = Date.parse("2025-07-04T10:00:00Z");
const end = Date.parse("2025-07-04T14:00:00Z");

describe("election timing", () => {
  it("counts down to the start, then the end, then shows ended", () => {
    expect(countdown(start - 90_061_000, end, start)).toEqual({ phase: "before_start", label: "STARTS IN", parts: { days: 1, hours: 1, minutes: 1, seconds: 1 } });
    expect(countdown(start, end, start)).toMatchObject({ phase: "active", label: "ENDS IN", parts: { days: 0, hours: 4, minutes: 0, seconds: 0 } });
    expect(countdown(end, end, start)).toEqual({ phase: "ended", label: null, parts: null });
    expect(countdown(end - 1, end).phase).toBe("active");
    expect(pad2(7)).toBe("07");
  });
  it("position status is active between start and end inclusive", () => {
    expect(positionStatus(start - 1, start, end)).toBe("upcoming");
    expect(positionStatus(start, start, end)).toBe("active");
    expect(positionStatus(end, start, end)).toBe("active");
    expect(positionStatus(end + 1, start, end)).toBe("ended");
  });
});

describe("results maths", () => {
  const results = [
    { positionId: "p1", positionTitle: "President", totalVotes: 3, breakdown: [{ candidateId: "a", name: "Ada", photo: null, votes: 1 }, { candidateId: "g", name: "Grace", photo: null, votes: 2 }] },
    { positionId: "p2", positionTitle: "Secretary", totalVotes: 0, breakdown: [{ candidateId: "l", name: "Linus", photo: null, votes: 0 }] },
  ];
  it("percentages and turnout", () => {
    expect(votePercentage(1, 3)).toBeCloseTo(33.333);
    expect(votePercentage(0, 0)).toBe(0);
    expect(formatPercent(turnout(1, 3))).toBe("33.3%");
    expect(formatPercent(turnout(1, 3), 2)).toBe("33.33%");
    expect(turnout(5, 0)).toBe(0);
  });
  it("leaders: one per position with votes", () => {
    expect(leadersByPosition(results).map((l) => l.name)).toEqual(["Grace"]);
  });
  it("top candidates: by votes, at most ten, ranked", () => {
    const many = [{ positionId: "p", positionTitle: "P", totalVotes: 78, breakdown: Array.from({ length: 12 }, (_, i) => ({ candidateId: `c${i}`, name: `C${i}`, photo: null, votes: i + 1 })) }];
    const top = topCandidates(many);
    expect(top).toHaveLength(10);
    expect(top[0]).toMatchObject({ name: "C11", rank: 1 });
    expect([1, 2, 3, 4].map(rankColour)).toEqual(["gold", "silver", "bronze", "blue"]);
  });
});
