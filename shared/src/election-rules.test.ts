import { describe, expect, it } from "vitest";
import { choiceProblem, isEligible, resultsHiddenFrom, windowEditProblem } from "./election-rules.ts";
import { messages } from "./messages.ts";
import { leadersByPosition, percentageBase, positionOutcome, positionTurnout, sharePercent, topCandidates } from "./results.ts";
import { castVoteSchema } from "./schemas.ts";
import { electionSettingsSchema, manifestoSchema, updatePositionSchema } from "./election-schemas.ts";

const H = 3_600_000;
const start = Date.parse("2026-03-02T10:00:00Z");
const end = start + 4 * H;
const window = { startTime: start, endTime: end };

describe("window edits (every edge, time passed in)", () => {
  it("the start may change only before the position opens", () => {
    expect(windowEditProblem(window, { startTime: start + H }, start - 1)).toBeNull();
    expect(windowEditProblem(window, { startTime: start + H }, start)).toBe(messages.startLocked);
    expect(windowEditProblem(window, { startTime: start - H }, start + 1)).toBe(messages.startLocked);
    // Sending the same start back is no change, even after it opened (forms send every field).
    expect(windowEditProblem(window, { startTime: start, endTime: end + H }, start + H)).toBeNull();
  });
  it("the end may be extended any time, even after the close (polling day runs late)", () => {
    expect(windowEditProblem(window, { endTime: end + H }, start + H)).toBeNull();
    expect(windowEditProblem(window, { endTime: end + 1 }, end)).toBeNull();
    expect(windowEditProblem(window, { endTime: end + H }, end + H / 2)).toBeNull();
  });
  it("the end may be shortened, but never to before now", () => {
    const now = start + H;
    expect(windowEditProblem(window, { endTime: now + 1 }, now)).toBeNull();
    expect(windowEditProblem(window, { endTime: now }, now)).toBeNull();
    expect(windowEditProblem(window, { endTime: now - 1 }, now)).toBe(messages.endBeforeNow);
  });
  it("start < end always", () => {
    expect(windowEditProblem(window, { startTime: end }, start - H)).toBe(messages.endAfterStart);
    expect(windowEditProblem(window, { startTime: end - 1 }, start - H)).toBeNull();
    expect(windowEditProblem(window, { endTime: start }, start - H)).toBe(messages.endAfterStart);
    expect(windowEditProblem(window, { startTime: start + 2 * H, endTime: start + H }, start - H)).toBe(messages.endAfterStart);
  });
  it("the title, eligibility and abstain need no window: an empty edit is fine", () => {
    expect(windowEditProblem(window, {}, end + 10 * H)).toBeNull();
  });
});

describe("ballot rules", () => {
  it("eligibility: no groups is everyone; otherwise any shared group, ignoring case and spaces", () => {
    expect(isEligible([], [])).toBe(true);
    expect(isEligible(["300L"], [" 300l "])).toBe(true);
    expect(isEligible(["300L", "Software"], ["Software"])).toBe(true);
    expect(isEligible(["300L"], ["200L"])).toBe(false);
    expect(isEligible(["300L"], [])).toBe(false);
  });
  it("'no' only when exactly one candidate stands; 'abstain' only where allowed", () => {
    expect(choiceProblem("no", { candidateCount: 1, allowAbstain: false })).toBeNull();
    expect(choiceProblem("no", { candidateCount: 2, allowAbstain: true })).toBe(messages.noNeedsUnopposed);
    expect(choiceProblem("no", { candidateCount: 0, allowAbstain: true })).toBe(messages.noNeedsUnopposed);
    expect(choiceProblem("abstain", { candidateCount: 3, allowAbstain: true })).toBeNull();
    expect(choiceProblem("abstain", { candidateCount: 3, allowAbstain: false })).toBe(messages.abstainNotAllowed);
    expect(choiceProblem("candidate", { candidateCount: 3, allowAbstain: false })).toBeNull();
  });
  it("a vote names a candidate or a choice, exactly one", () => {
    expect(castVoteSchema.safeParse({ positionId: "p", candidateId: "c" }).success).toBe(true);
    expect(castVoteSchema.safeParse({ positionId: "p", choice: "no" }).success).toBe(true);
    expect(castVoteSchema.safeParse({ positionId: "p", choice: "abstain" }).success).toBe(true);
    expect(castVoteSchema.safeParse({ positionId: "p", choice: "yes" }).success).toBe(false);
    expect(castVoteSchema.safeParse({ positionId: "p", candidateId: "c", choice: "no" }).success).toBe(false);
    const none = castVoteSchema.safeParse({ positionId: "p", candidateId: "" });
    expect(none.success ? null : none.error.issues[0].message).toBe(messages.selectCandidate);
  });
  it("results are withheld from voters only with 'after-close', and only before the end", () => {
    const s = { resultsVisibility: "after-close" as const, endTime: new Date(end).toISOString() };
    expect(resultsHiddenFrom(s, false, end - 1)).toBe(true);
    expect(resultsHiddenFrom(s, false, end)).toBe(false);
    expect(resultsHiddenFrom(s, true, end - 1)).toBe(false);
    expect(resultsHiddenFrom({ ...s, resultsVisibility: "live" }, false, end - 1)).toBe(false);
  });
});

describe("schemas", () => {
  it("settings: start < end, known visibility and order", () => {
    const ok = { title: "T", subtitle: "", startTime: "2026-03-02T10:00:00Z", endTime: "2026-03-02T14:00:00Z", resultsVisibility: "live", ballotOrder: "fixed" };
    expect(electionSettingsSchema.safeParse(ok).success).toBe(true);
    expect(electionSettingsSchema.safeParse({ ...ok, endTime: ok.startTime }).success).toBe(false);
    expect(electionSettingsSchema.safeParse({ ...ok, title: " " }).success).toBe(false);
    expect(electionSettingsSchema.safeParse({ ...ok, ballotOrder: "alphabetical" }).success).toBe(false);
  });
  it("position edits: known fields only; groups cleaned", () => {
    expect(updatePositionSchema.parse({ eligibleGroups: [" 300L", "300L", ""] })).toEqual({ eligibleGroups: ["300L"] });
    expect(updatePositionSchema.safeParse({ candidates: [] }).success).toBe(false);
    expect(updatePositionSchema.safeParse({ allowAbstain: "yes" }).success).toBe(false);
  });
  it("manifesto: plain text up to 2,000 characters; blank is none", () => {
    expect(manifestoSchema.parse("x".repeat(2000))).toHaveLength(2000);
    expect(manifestoSchema.safeParse("x".repeat(2001)).success).toBe(false);
    expect(manifestoSchema.parse("   ")).toBeNull();
    expect(manifestoSchema.parse("<b>kept as text</b>")).toBe("<b>kept as text</b>");
  });
});

const entry = (name: string, votes: number) => ({ candidateId: name, name, photo: null, votes });
const position = (breakdown: ReturnType<typeof entry>[], extra: { noVotes?: number; abstentions?: number } = {}) => ({
  positionId: "p",
  positionTitle: "President",
  breakdown,
  totalVotes: breakdown.reduce((n, b) => n + b.votes, 0) + (extra.noVotes ?? 0) + (extra.abstentions ?? 0),
  ...extra,
});

describe("results rule: counts, percentages, elected, ties", () => {
  it("percentages leave abstentions out and count 'No' in", () => {
    const r = position([entry("Ada", 3)], { noVotes: 1, abstentions: 4 });
    expect(r.totalVotes).toBe(8);
    expect(percentageBase(r)).toBe(4);
    expect(sharePercent(3, r)).toBe(75);
  });
  it("unopposed: elected only with more Yes than No", () => {
    expect(positionOutcome(position([entry("Ada", 3)], { noVotes: 2 }))).toMatchObject({ kind: "elected", yes: 3, no: 2 });
    expect(positionOutcome(position([entry("Ada", 2)], { noVotes: 2 }))).toMatchObject({ kind: "not-elected" });
    expect(positionOutcome(position([entry("Ada", 0)], { noVotes: 1 }))).toMatchObject({ kind: "not-elected" });
    expect(positionOutcome(position([entry("Ada", 0)], { abstentions: 5 }))).toEqual({ kind: "no-votes" });
    expect(leadersByPosition([position([entry("Ada", 2)], { noVotes: 2 })])).toEqual([]);
    expect(leadersByPosition([position([entry("Ada", 3)], { noVotes: 1 })])[0]).toMatchObject({ name: "Ada", percentage: 75 });
  });
  it("ties: two or more sharing the lead are a 'Tie', never a leader", () => {
    const tie = position([entry("Ada", 2), entry("Grace", 2), entry("Linus", 1)]);
    expect(positionOutcome(tie)).toMatchObject({ kind: "tie", tied: [{ name: "Ada" }, { name: "Grace" }] });
    expect(leadersByPosition([tie])).toEqual([]);
    expect(positionOutcome(position([entry("Ada", 3), entry("Grace", 2)]))).toMatchObject({ kind: "leader", leader: { name: "Ada" } });
    expect(positionOutcome(position([entry("Ada", 0), entry("Grace", 0)]))).toEqual({ kind: "no-votes" });
    expect(positionOutcome(position([]))).toEqual({ kind: "no-votes" });
  });
  it("top candidates' percentages use the same base", () => {
    expect(topCandidates([position([entry("Ada", 1), entry("Grace", 3)], { abstentions: 4 })]).map((c) => c.percentage)).toEqual([75, 25]);
  });
  it("a position's turnout is of its eligible voters", () => {
    expect(positionTurnout({ totalVotes: 5, eligibleVoters: 10 }, 100)).toBe(50);
    expect(positionTurnout({ totalVotes: 5 }, 100)).toBe(5);
  });
});
