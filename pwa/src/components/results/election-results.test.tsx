/** The results screens: ties, Yes/No, abstentions, and results withheld from voters. */
import { screen, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { messages, type PositionResult, type Results } from "@evoting/shared";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderWithQuery } from "../../test/render";
import { HomePage } from "../../screens/HomePage";
import { LeadersGrid } from "./LeadersGrid";
import { PositionBreakdown } from "./PositionBreakdown";

const position = (id: string, votes: number[], extra: Partial<PositionResult> = {}): PositionResult => ({
  positionId: id,
  positionTitle: `Position ${id}`,
  totalVotes: votes.reduce((a, b) => a + b, 0) + (extra.noVotes ?? 0) + (extra.abstentions ?? 0),
  breakdown: votes.map((v, i) => ({ candidateId: `${id}-${i}`, name: `Cand ${id}${i}`, photo: null, votes: v })),
  ...extra,
});
const results = (list: PositionResult[]): Results => ({ totalRegisteredVoters: 10, totalVotesCast: 5, results: list, generatedAt: "2026-01-01T00:00:00.000Z" });

describe("leaders: ties and Yes/No", () => {
  test("a shared lead reads 'Tie', never a leader; a Yes/No candidate is elected only with more Yes than No", () => {
    const yesNo = { yesNo: true };
    renderWithQuery(<LeadersGrid results={results([position("A", [2, 2, 1]), position("B", [3], { noVotes: 1, ...yesNo }), position("C", [2], { noVotes: 2, ...yesNo }), position("D", [4, 1])])} />);
    const cards = screen.getAllByRole("listitem");
    expect(cards.map((c) => c.getAttribute("data-outcome"))).toEqual(["tie", "elected", "not-elected", "leader"]);
    expect(within(cards[0]).getByText("Tie")).toBeInTheDocument();
    expect(within(cards[0]).getByText(/Cand A0, Cand A1 · 2 votes each/)).toBeInTheDocument();
    expect(within(cards[1]).getByText("Cand B0 · Elected")).toBeInTheDocument();
    expect(within(cards[1]).getByText("Yes 3 · No 1")).toBeInTheDocument();
    expect(within(cards[2]).getByText("Cand C0 · Not elected")).toBeInTheDocument();
    expect(within(cards[3]).getByText("4 votes · 80.0%")).toBeInTheDocument();
  });

  test("without the yes-no setting (docs/product.md) a lone candidate leads like any other", () => {
    renderWithQuery(<LeadersGrid results={results([position("B", [3])])} />);
    const [card] = screen.getAllByRole("listitem");
    expect(card.getAttribute("data-outcome")).toBe("leader");
    expect(within(card).getByText("3 votes · 100.0%")).toBeInTheDocument();
  });

  test("breakdown: Yes and No bars with shares of those who chose; abstentions reported apart", () => {
    renderWithQuery(<PositionBreakdown result={position("B", [3], { noVotes: 1, abstentions: 4, yesNo: true })} />);
    expect(screen.getByText("8 votes · Elected")).toBeInTheDocument();
    expect(screen.getByRole("meter", { name: "Yes: Cand B0 share of votes" })).toHaveAttribute("aria-valuenow", "75");
    expect(screen.getByRole("meter", { name: "No share of votes" })).toHaveAttribute("aria-valuenow", "25");
    expect(screen.getByTestId("abstentions")).toHaveTextContent("Abstained: 4 (not counted in the percentages)");
  });

  test("breakdown: a position's turnout is of its eligible voters", () => {
    renderWithQuery(<PositionBreakdown result={position("E", [1, 1], { eligibleVoters: 4 })} registeredVoters={10} />);
    expect(screen.getByText("2 votes · Tie · turnout 50.0% of 4 eligible")).toBeInTheDocument();
  });

  test("breakdown: a tie is said in the heading", () => {
    renderWithQuery(<PositionBreakdown result={position("A", [2, 2])} />);
    expect(screen.getByText("4 votes · Tie")).toBeInTheDocument();
  });
});

describe("'after close': results withheld from voters", () => {
  const withheld = () => json({ message: messages.resultsHidden }, 403);

  test("the Leaderboard says so instead of tallies", async () => {
    mockFetch({
      "GET /api/vote/results": withheld,
      "GET /api/election": () => json({ title: "SUG Elections", subtitle: "", startTime: "2026-01-01T08:00:00.000Z", endTime: "2099-01-01T16:00:00.000Z", resultsVisibility: "after-close", ballotOrder: "fixed" }),
      "GET /api/vote/positions": () => json([]),
    });
    renderWithQuery(<HomePage />);
    expect(await screen.findByText(messages.resultsHidden)).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "SUG Elections" })).toBeInTheDocument();
    expect(screen.queryByText("Results Overview")).not.toBeInTheDocument();
  });
});
