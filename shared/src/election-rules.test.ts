import { describe, expect, it } from "vitest";
import { SPEC_ELECTION, choiceProblem, isEligible, isYesNoBallot, markYesNo, resultsHiddenFrom, windowEditProblem } from "./election-rules.ts";
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
  it("with the grace given (the server), a closed position's end no longer moves", () => {
    const grace = 600_000;
    expect(windowEditProblem(window, { endTime: end + H }, end + grace - 1, grace)).toBeNull();
    expect(windowEditProblem(window, { endTime: end + H }, end + grace, grace)).toBe(messages.endLockedClosed);
    expect(windowEditProblem(window, { endTime: end }, end + H, grace)).toBeNull();
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
  it("Yes/No only for exactly one candidate AND the setting 'yes-no'; the baseline's 'single' is the default", () => {
    expect(SPEC_ELECTION.unopposed).toBe("single");
    expect(isYesNoBallot(1, "single")).toBe(false);
    expect(isYesNoBallot(1, "yes-no")).toBe(true);
    expect(isYesNoBallot(0, "yes-no")).toBe(false);
    expect(isYesNoBallot(2, "yes-no")).toBe(false);
    const lone = { _id: "p1", candidates: [{ _id: "c1" }] };
    const pair = { _id: "p2", candidates: [{ _id: "c2" }, { _id: "c3" }] };
    expect(markYesNo([lone, pair], "single")).toEqual([lone, pair]);
    expect(markYesNo([lone, pair], "yes-no")).toEqual([{ ...lone, yesNo: true }, pair]);
  });
  it("'no' only on a Yes/No ballot; 'abstain' only where allowed", () => {
    expect(choiceProblem("no", { candidateCount: 1, allowAbstain: false, unopposed: "yes-no" })).toBeNull();
    expect(choiceProblem("no", { candidateCount: 1, allowAbstain: true, unopposed: "single" })).toBe(messages.noNeedsUnopposed);
    expect(choiceProblem("no", { candidateCount: 2, allowAbstain: true, unopposed: "yes-no" })).toBe(messages.noNeedsUnopposed);
    expect(choiceProblem("no", { candidateCount: 0, allowAbstain: true, unopposed: "yes-no" })).toBe(messages.noNeedsUnopposed);
    expect(choiceProblem("abstain", { candidateCount: 3, allowAbstain: true, unopposed: "single" })).toBeNull();
    expect(choiceProblem("abstain", { candidateCount: 3, allowAbstain: false, unopposed: "yes-no" })).toBe(messages.abstainNotAllowed);
    expect(choiceProblem("candidate", { candidateCount: 1, allowAbstain: false, unopposed: "single" })).toBeNull();
  });
  it("a vote names a candidate or a choice, exactly one", () => {
    expect(castVoteSchema.safeParse({ positionId: "p", candidateId: "c" }).success).toBe(true);
    expect(castVoteSchema.safeParse({ positionId: "p", choice: "no" }).success).toBe(true);
    expect(castVoteSchema.safeParse({ positionId: "p", choice: "abstain" }).success).toBe(true);
    // 'yes' is a referendum's (the API refuses it elsewhere: methodNeedsOwnBody); 'maybe' is nobody's.
    expect(castVoteSchema.safeParse({ positionId: "p", choice: "yes" }).success).toBe(true);
    expect(castVoteSchema.safeParse({ positionId: "p", choice: "maybe" }).success).toBe(false);
    expect(castVoteSchema.safeParse({ positionId: "p", ranking: ["a", "b"] }).success).toBe(true);
    expect(castVoteSchema.safeParse({ positionId: "p", ranking: ["a"], candidateIds: ["a"] }).success).toBe(false);
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
    // A position that closes later than the window keeps them hidden until it has closed.
    expect(resultsHiddenFrom(s, false, end + 1, end + H)).toBe(true);
    expect(resultsHiddenFrom(s, false, end + H, end + H)).toBe(false);
  });
});

describe("schemas", () => {
  it("settings: start < end, known visibility, order and unopposed mode", () => {
    const ok = { title: "T", subtitle: "", startTime: "2026-03-02T10:00:00Z", endTime: "2026-03-02T14:00:00Z", resultsVisibility: "live", ballotOrder: "fixed", unopposed: "single" };
    expect(electionSettingsSchema.safeParse(ok).success).toBe(true);
    expect(electionSettingsSchema.safeParse({ ...ok, endTime: ok.startTime }).success).toBe(false);
    expect(electionSettingsSchema.safeParse({ ...ok, title: " " }).success).toBe(false);
    expect(electionSettingsSchema.safeParse({ ...ok, ballotOrder: "alphabetical" }).success).toBe(false);
    expect(electionSettingsSchema.safeParse({ ...ok, unopposed: "yes-no" }).success).toBe(true);
    expect(electionSettingsSchema.safeParse({ ...ok, unopposed: "yes" }).success).toBe(false);
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
const position = (breakdown: ReturnType<typeof entry>[], extra: { noVotes?: number; abstentions?: number; yesNo?: boolean } = {}) => ({
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
  it("unopposed in yes-no mode: elected only with more Yes than No", () => {
    const yesNo = { yesNo: true };
    expect(positionOutcome(position([entry("Ada", 3)], { noVotes: 2, ...yesNo }))).toMatchObject({ kind: "elected", yes: 3, no: 2 });
    expect(positionOutcome(position([entry("Ada", 2)], { noVotes: 2, ...yesNo }))).toMatchObject({ kind: "not-elected" });
    expect(positionOutcome(position([entry("Ada", 0)], { noVotes: 1, ...yesNo }))).toMatchObject({ kind: "not-elected" });
    expect(positionOutcome(position([entry("Ada", 0)], { abstentions: 5, ...yesNo }))).toEqual({ kind: "no-votes" });
    expect(leadersByPosition([position([entry("Ada", 2)], { noVotes: 2, ...yesNo })])).toEqual([]);
    expect(leadersByPosition([position([entry("Ada", 3)], { noVotes: 1, ...yesNo })])[0]).toMatchObject({ name: "Ada", percentage: 75 });
  });
  it("a lone candidate without the yes-no setting (docs/product.md) leads with any vote, as in any position", () => {
    expect(positionOutcome(position([entry("Ada", 1)]))).toMatchObject({ kind: "leader", leader: { name: "Ada" } });
    expect(leadersByPosition([position([entry("Ada", 2)])])[0]).toMatchObject({ name: "Ada", percentage: 100 });
    expect(positionOutcome(position([entry("Ada", 0)]))).toEqual({ kind: "no-votes" });
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
