/** Results of several-seat, ranked and referendum positions: the outcome, the count by stage, the BLT file, the printed sheet (live and a declared election's). */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { SPEC_ELECTION, countStv, referendumOutcome, type ElectionArchive, type PositionResult, type ResultsSheet, type UserProfile } from "@evoting/shared";
import { session } from "../../auth/session";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderRoute, renderWithQuery } from "../../test/render";
import { formatTime } from "../../lib/format";
import { ResultsSheetPage } from "../../screens/admin/ResultsSheetPage";
import { PastElectionPage } from "../../screens/elections/PastElectionPage";
import { PastElectionSheetPage } from "../../screens/elections/PastElectionSheetPage";
import { PositionBreakdown } from "./PositionBreakdown";
import { ResultsOverview } from "./ResultsOverview";

afterEach(() => session.clear());
const person = (role: UserProfile["role"]): UserProfile => ({ _id: "u1", name: "Someone", role, matricNumber: "0000/5570000", email: null, hasPassword: true });

const people = ["Ada", "Grace", "Linus", "Margaret"];
const breakdown = (votes: number[]) => votes.map((v, i) => ({ candidateId: `c${i}`, name: people[i], photo: null, votes: v }));

const multiTie: PositionResult = {
  positionId: "reps",
  positionTitle: "Class Reps",
  totalVotes: 2,
  breakdown: breakdown([2, 1, 1, 0]),
  method: "multi",
  seats: 2,
  elected: ["c0"],
  tied: ["c1", "c2"],
};

const rankedOpen: PositionResult = {
  positionId: "chair",
  positionTitle: "Chair",
  totalVotes: 7,
  breakdown: breakdown([4, 1, 1, 1]),
  method: "ranked",
  seats: 2,
  rule: "scottish-stv",
  count: "first-preferences",
  lotSeed: "chair",
};

/** The real count of these ballots (shared/src/counting), as the API sends it once the position closes. */
function rankedClosed(): PositionResult {
  const ballots = [["c0", "c1"], ["c0", "c1"], ["c0", "c2"], ["c0"], ["c1"], ["c2", "c3"], ["c3", "c2"]];
  const count = countStv({ candidates: ["c0", "c1", "c2", "c3"], seats: 2, ballots, lotSeed: "chair" });
  return { ...rankedOpen, count: "full", elected: count.elected, rounds: count.rounds, quota: count.quota };
}

const referendum: PositionResult = {
  positionId: "amend",
  positionTitle: "Amendment",
  totalVotes: 11,
  breakdown: [],
  noVotes: 3,
  abstentions: 1,
  method: "referendum",
  seats: 1,
  question: "Amend article 4?",
  passThreshold: 2 / 3,
  referendum: referendumOutcome(7, 3, 1, 2 / 3),
};

describe("several seats", () => {
  test("the elected and a tie for the last seat, named as a tie; shares of the ballots", () => {
    renderWithQuery(<PositionBreakdown result={multiTie} />);
    expect(screen.getByTestId("method-outcome-reps")).toHaveTextContent("Multiple seats (2 seats) · Elected: Ada · Tie for the last seat: Grace, Linus");
    const meters = screen.getAllByRole("meter");
    expect(meters.map((m) => m.getAttribute("aria-label"))).toEqual(["Ada share of ballots", "Grace share of ballots", "Linus share of ballots", "Margaret share of ballots"]);
    expect(meters[0]).toHaveAttribute("aria-valuetext", "100.0%");
    const ada = meters[0].closest("li")!;
    expect(within(ada).getByText("Elected")).toBeInTheDocument();
    expect(within(meters[1].closest("li")!).getByText("Tie")).toBeInTheDocument();
  });

  test("the overview names the elected and the tie", () => {
    renderWithQuery(<ResultsOverview results={{ totalRegisteredVoters: 5, totalVotesCast: 2, generatedAt: "", results: [multiTie] }} show="leaders" />);
    const card = screen.getByTestId("method-card-reps");
    expect(card).toHaveTextContent("Elected: Ada");
    expect(card).toHaveTextContent("Tie for the last seat: Grace, Linus");
  });
});

describe("ranked", () => {
  test("while open: first preferences only, no stages", () => {
    renderWithQuery(<PositionBreakdown result={rankedOpen} />);
    expect(screen.getByTestId("method-outcome-chair")).toHaveTextContent("First preferences while voting is open; the full count follows the close.");
    expect(screen.getAllByRole("meter")[0]).toHaveAttribute("aria-label", "Ada share of first preferences");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    renderWithQuery(<ResultsOverview results={{ totalRegisteredVoters: 9, totalVotesCast: 7, generatedAt: "", results: [rankedOpen] }} show="top" />);
    expect(screen.getByTestId("method-card-chair")).toHaveTextContent("Ada leads on first preferences");
  });

  test("closed, the grace still running: when voting closed and until when offline votes are accepted, not 'follows the close'", async () => {
    session.signIn("token-123456789012345678901", person("voter"));
    const closedAt = Date.now() - 60_000;
    mockFetch({ "GET /api/election": () => json({ ...SPEC_ELECTION, voteGraceMinutes: 10 }) });
    const text = `Voting closed at ${formatTime(closedAt)}; the full count follows at ${formatTime(closedAt + 10 * 60_000)}, after the grace for votes cast offline.`;
    renderWithQuery(<ResultsOverview results={{ totalRegisteredVoters: 9, totalVotesCast: 7, generatedAt: "", results: [{ ...rankedOpen, endTime: new Date(closedAt).toISOString() }] }} show="top" />);
    await waitFor(() => expect(screen.getByTestId("method-card-chair")).toHaveTextContent(text));
    expect(screen.getByTestId("method-card-chair")).not.toHaveTextContent("The full count follows the close.");
  });

    test("closed: every stage's votes, who was elected or excluded and why, non-transferable votes, the rule set named", () => {
    session.signIn("token-123456789012345678901", person("voter"));
    const result = rankedClosed();
    renderWithQuery(<PositionBreakdown result={result} />);
    expect(screen.getByText("Scottish STV (quota 3)")).toBeInTheDocument();
    const table = screen.getByRole("table");
    const stages = within(table).getAllByRole("columnheader").slice(1).map((th) => th.textContent);
    expect(stages[0]).toBe("Stage 1First preferences");
    expect(stages[1]).toBe("Stage 2Surplus of Ada");
    expect(stages).toHaveLength(result.rounds!.length);
    // Each candidate's row holds their figure at every stage, to five decimals at most.
    const grace = within(table).getByRole("rowheader", { name: /^Grace/ }).closest("tr")!;
    const figures = within(grace).getAllByRole("cell").map((td) => td.textContent!.replace(/ \(.*\)$/, ""));
    expect(figures).toEqual(result.rounds!.map((r) => String(Number(r.votes.c1.toFixed(5)))));
    expect(figures[1]).toBe("1.5");
    expect(within(table).getByRole("rowheader", { name: "Non-transferable" })).toBeInTheDocument();
    expect(within(table).getByRole("rowheader", { name: /^Ada/ })).toHaveTextContent("Elected at stage 1");
    expect(screen.getByText(/Stage 1: Ada elected: reached the quota/)).toBeInTheDocument();
    expect(screen.getAllByText(/excluded: fewest votes/).length).toBeGreaterThan(0);
    expect(screen.getByTestId("method-outcome-chair")).toHaveTextContent(`Elected: ${result.elected!.map((id) => people[Number(id[1])]).join(", ")}`);
    // The BLT file is the admin's (and observer's), not a voter's.
    expect(screen.queryByRole("button", { name: "Download ballots (BLT)" })).not.toBeInTheDocument();
  });

  test("an admin downloads the closed position's ballots as BLT", async () => {
    session.signIn("token-123456789012345678901", person("admin"));
    const fetch = mockFetch({ "GET /api/admin/positions/chair/ballots.blt": () => new Response("4 2\n1 1 2 0\n0\n\"Ada\"\n", { status: 200 }) });
    const createObjectURL = vi.fn(() => "blob:x");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    renderWithQuery(<PositionBreakdown result={rankedClosed()} />);
    await userEvent.click(screen.getByRole("button", { name: "Download ballots (BLT)" }));
    await vi.waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(fetch.mock.calls[0][0]).toBe("/api/admin/positions/chair/ballots.blt");
    expect((fetch.mock.calls[0][1] as RequestInit).headers).toMatchObject({ Authorization: "Bearer token-123456789012345678901" });
  });
});

describe("referendum", () => {
  test("Yes, No and abstentions, whether it passed and at what threshold", () => {
    renderWithQuery(<PositionBreakdown result={referendum} />);
    expect(screen.getByText("Amend article 4?")).toBeInTheDocument();
    expect(screen.getByText(/Passes with: More than two thirds Yes/)).toHaveTextContent("Passed");
    const meters = screen.getAllByRole("meter");
    expect(meters.map((m) => [m.getAttribute("aria-label"), m.getAttribute("aria-valuetext")])).toEqual([
      ["Yes share of Yes and No", "70.0%"],
      ["No share of Yes and No", "30.0%"],
    ]);
    expect(screen.getByTestId("abstentions")).toHaveTextContent("Abstentions: 1 (not counted in the percentages)");
  });

  test("exactly the threshold does not pass", () => {
    renderWithQuery(<PositionBreakdown result={{ ...referendum, referendum: referendumOutcome(2, 1, 0, 2 / 3) }} />);
    expect(screen.getByText("Not passed")).toBeInTheDocument();
  });
});

describe("the printed results sheet", () => {
  test("names each method's outcome as the CSV does and prints a ranked count's stages", async () => {
    session.signIn("token-123456789012345678901", person("observer"));
    const sheet: ResultsSheet = {
      producedAt: "2026-03-02T10:00:00.000Z",
      csvSha256: "c".repeat(64),
      audit: { entries: 1, headSeq: 1, head: "d".repeat(64) },
      results: { totalRegisteredVoters: 10, totalVotesCast: 9, generatedAt: "", results: [multiTie, rankedClosed(), referendum] },
    };
    mockFetch({
      "GET /api/admin/results/sheet": () => json(sheet),
      "GET /api/election": () => json({ title: "CSC Leadership 2025", subtitle: "", startTime: "2025-07-04T10:00:00.000Z", endTime: "2025-07-04T14:00:00.000Z" }),
    });
    renderRoute(ResultsSheetPage, "/admin/results/print");
    await screen.findByRole("heading", { name: "CSC Leadership 2025" }, { timeout: 8000 });
    expect(screen.getByTestId("outcome-reps")).toHaveTextContent(/^Elected: Ada · Tie: Grace; Linus$/);
    expect(screen.getByTestId("outcome-amend")).toHaveTextContent(/^Passed$/);
    expect(screen.getByText(/Amend article 4\? Passes with: More than two thirds Yes/)).toBeInTheDocument();
    const stages = screen.getByTestId("rounds-chair");
    expect(within(stages).getByText("Surplus of Ada")).toBeInTheDocument();
    expect(within(stages).getByText(/Counted by/)).toHaveTextContent("Scottish STV (quota 3)");
    // The printed sheet says how to repeat the count; a sheet has no buttons.
    const recount = screen.getByTestId("recount-chair");
    expect(recount).toHaveTextContent(/download this position's ballots \(BLT\) and run npm run recount -- Chair\.blt/);
    expect(within(recount).queryByRole("button")).toBeNull();
  });

  test("a declared election's archive prints on the same sheet, as published: counts, stages, verdicts, digests, declaration time", async () => {
    session.signIn("token-123456789012345678901", person("voter"));
    const declaredAt = "2026-03-02T15:00:00.000Z";
    const archive: ElectionArchive = {
      election: { id: 3, title: "SUG Elections 2026", subtitle: "Main poll", startTime: "2026-03-02T08:00:00.000Z", endTime: "2026-03-02T14:00:00.000Z", state: "declared", declaredAt },
      resultsCsv: "position,choice\r\n",
      resultsSha256: "a".repeat(64),
      // The sheet as archived: every waiting ballot was applied at the declaration.
      sheet: {
        producedAt: declaredAt,
        csvSha256: "a".repeat(64),
        audit: { entries: 40, headSeq: 40, head: "b".repeat(64) },
        results: { totalRegisteredVoters: 20, totalVotesCast: 11, generatedAt: declaredAt, ballotBatch: 10, results: [rankedClosed(), referendum] },
      },
      receipts: [],
      audit: { seq: 40, hash: "b".repeat(64) },
      settings: {},
      positions: [],
    };
    mockFetch({ "GET /api/elections/3": () => json(archive) });
    const print = vi.spyOn(window, "print").mockImplementation(() => {});
    const { unmount } = renderRoute(() => <PastElectionSheetPage id={3} />, "/elections/3/print");
    await screen.findByRole("heading", { name: "SUG Elections 2026" }, { timeout: 8000 });
    expect(screen.getByText("Declared results")).toBeInTheDocument();
    expect(screen.getByText(/Results declared:/).querySelector("time")).toHaveAttribute("dateTime", declaredAt);
    expect(screen.getByText(/Voting window:/)).toBeInTheDocument();
    expect(screen.getByText("55.0%")).toBeInTheDocument(); // 11 of 20
    expect(within(screen.getByTestId("rounds-chair")).getByText("Surplus of Ada")).toBeInTheDocument();
    expect(screen.getByTestId("recount-chair")).toHaveTextContent(/npm run recount -- Chair\.blt/);
    expect(screen.getByTestId("outcome-amend")).toHaveTextContent(/^Passed$/);
    expect(screen.getByTestId("csv-digest")).toHaveTextContent("a".repeat(64));
    expect(screen.getByTestId("audit-head")).toHaveTextContent("b".repeat(64));
    expect(screen.getByText(/Audit chain head \(entry 40 of 40, at the declaration\)/)).toBeInTheDocument();
    // A declaration added every ballot: no "waiting" notice on the published sheet.
    expect(screen.queryByTestId("ballot-batch-notice")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Print" }));
    expect(print).toHaveBeenCalledOnce();
    expect(screen.getByRole("button", { name: "Print" }).parentElement).toHaveClass("print:hidden");
    expect(screen.getByRole("link", { name: "Back to the election" })).toHaveAttribute("href", "/elections/3");
    unmount();

    // The archive page leads to it, and tells a voter how to recount (the BLT download is for admins and observers).
    const { unmount: unmountArchive } = renderRoute(() => <PastElectionPage id={3} />, "/elections/3");
    expect(await screen.findByRole("link", { name: "Print Results" }, { timeout: 8000 })).toHaveAttribute("href", "/elections/3/print");
    expect(screen.getByTestId("recount-chair")).toHaveTextContent(/npm run recount -- Chair\.blt/);
    expect(screen.queryByRole("button", { name: "Download ballots (BLT)" })).toBeNull();
    unmountArchive();
    session.signIn("token-123456789012345678901", person("observer"));
    renderRoute(() => <PastElectionPage id={3} />, "/elections/3");
    expect(await screen.findByRole("button", { name: "Download ballots (BLT)" }, { timeout: 8000 })).toBeInTheDocument();
    print.mockRestore();
  });
});
