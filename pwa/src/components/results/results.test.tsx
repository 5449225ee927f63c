import { render, screen, within } from "@testing-library/react";
import { renderWithQuery } from "../../test/render";
import { describe, expect, test } from "vitest";
import type { PositionResult, Results } from "@evoting/shared";
import { ResultsOverview } from "./ResultsOverview";
import { SummaryTiles } from "./SummaryTiles";
import { TopCandidatesList } from "./TopCandidatesList";
import { PositionBreakdown } from "./PositionBreakdown";
import { PositionTable } from "./PositionTable";

const position = (id: string, votes: number[]): PositionResult => ({
  positionId: id,
  positionTitle: `Position ${id}`,
  totalVotes: votes.reduce((a, b) => a + b, 0),
  breakdown: votes.map((v, i) => ({ candidateId: `${id}-${i}`, name: `Cand ${id}${i}`, photo: null, votes: v })),
});

const results = (overrides: Partial<Results> = {}): Results => ({
  totalRegisteredVoters: 3,
  totalVotesCast: 2,
  results: [position("A", [2, 1, 0])],
  generatedAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

describe("results", () => {
  test("tiles: voters, votes, turnout to 1 decimal, position count", () => {
    render(<SummaryTiles results={results()} />);
    expect(screen.getByTestId("tile-Registered Voters")).toHaveTextContent("3");
    expect(screen.getByTestId("tile-Votes Cast")).toHaveTextContent("2");
    expect(screen.getByTestId("tile-Turnout")).toHaveTextContent("66.7%");
    expect(screen.getByTestId("tile-Positions")).toHaveTextContent("1");
  });

  test("the detailed tab reads turnout to 2 decimals; no voters is 0, not NaN", () => {
    const { unmount } = render(<SummaryTiles results={results()} turnoutDecimals={2} />);
    expect(screen.getByTestId("tile-Turnout")).toHaveTextContent("66.67%");
    unmount();
    render(<SummaryTiles results={results({ totalRegisteredVoters: 0, totalVotesCast: 0 })} />);
    expect(screen.getByTestId("tile-Turnout")).toHaveTextContent("0.0%");
  });

  test("top candidates: at most 10, ranked by votes, gold/silver/bronze then blue", () => {
    const many = results({ results: [position("A", [12, 11, 10, 9, 8, 7]), position("B", [6, 5, 4, 3, 2, 1])] });
    renderWithQuery(<TopCandidatesList results={many} />);
    const items = within(screen.getByTestId("top-candidates")).getAllByRole("listitem");
    expect(items).toHaveLength(10);
    const colours = items.map((li) => li.querySelector("[data-rank-colour]")!.getAttribute("data-rank-colour"));
    expect(colours).toEqual(["gold", "silver", "bronze", "blue", "blue", "blue", "blue", "blue", "blue", "blue"]);
    expect(within(items[0]).getByText("Cand A0")).toBeInTheDocument();
    expect(within(items[0]).getByText("12")).toBeInTheDocument();
    expect(within(items[9]).getByText("Cand B3")).toBeInTheDocument();
  });

  test("leaders: one per position, with its share to 1 decimal", () => {
    renderWithQuery(<ResultsOverview results={results({ results: [position("A", [2, 1]), position("B", [0, 3])] })} />);
    expect(screen.getByText("Current Leaders by Position")).toBeInTheDocument();
    expect(screen.getByText("Top Candidates by Vote Count")).toBeInTheDocument();
    expect(screen.getByText(/2 votes · 66\.7%/)).toBeInTheDocument();
    expect(screen.getAllByText(/3 votes · 100\.0%/).length).toBeGreaterThan(0);
  });

  test("empty states", () => {
    const { unmount } = renderWithQuery(<ResultsOverview results={results({ results: [] })} />);
    expect(screen.getByText("No results available yet.")).toBeInTheDocument();
    unmount();
    renderWithQuery(<ResultsOverview results={results({ totalVotesCast: 0, results: [position("A", [0, 0])] })} />);
    expect(screen.getByText("No votes have been cast yet.")).toBeInTheDocument();
    expect(screen.getByText("Results will appear here once voting begins.")).toBeInTheDocument();
  });

  test("breakdown bars: sorted by votes, percentages to 1 decimal", () => {
    renderWithQuery(<PositionBreakdown result={position("A", [1, 2, 0])} />);
    const meters = screen.getAllByRole("meter");
    expect(meters.map((m) => m.getAttribute("aria-label"))).toEqual([
      "Cand A1 share of votes",
      "Cand A0 share of votes",
      "Cand A2 share of votes",
    ]);
    expect(meters.map((m) => m.getAttribute("aria-valuetext"))).toEqual(["66.7%", "33.3%", "0.0%"]);
  });

  test("a verifiable position says 'Verified with Belenios' once decrypted, with the final fingerprint on the sheet; before, that its ballots are encrypted", () => {
    const fingerprint = "q2ZKWm3gq1DPV9k7d3m5cJcQk1o3x9N1U5Z0hLr1Y0E";
    const verified: PositionResult = { ...position("A", [2, 1]), belenios: { state: "decrypted", verified: true, fingerprint } };
    const { unmount } = renderWithQuery(<PositionBreakdown result={verified} />);
    expect(within(screen.getByRole("region", { name: "Position A" })).getByText("Verified with Belenios")).toBeInTheDocument();
    unmount();
    const overview = renderWithQuery(<ResultsOverview results={results({ totalVotesCast: 3, results: [verified] })} />);
    // The leader's card on the Overview carries it too.
    expect(screen.getByText("Verified with Belenios")).toBeInTheDocument();
    overview.unmount();
    const sheet = render(<PositionTable result={verified} />);
    const section = screen.getByRole("region", { name: "Position A" });
    expect(within(section).getByText(/Verified with Belenios/)).toBeInTheDocument();
    expect(within(section).getByText(fingerprint)).toBeInTheDocument();
    sheet.unmount();

    const encrypted: PositionResult = { ...position("B", [0, 0]), totalVotes: 3, belenios: { state: "tallying", verified: false, fingerprint: "x" } };
    const { unmount: gone } = renderWithQuery(<PositionBreakdown result={encrypted} />);
    expect(screen.getByText("Encrypted: counted when the trustees decrypt")).toBeInTheDocument();
    expect(screen.queryByText(/Verified with Belenios/)).not.toBeInTheDocument();
    gone();
    const encryptedSheet = render(<PositionTable result={encrypted} />);
    expect(screen.getByText("Encrypted ballots: the counts come when every trustee has decrypted.")).toBeInTheDocument();
    expect(screen.queryByText(/Verified with Belenios/)).not.toBeInTheDocument();
    encryptedSheet.unmount();

    render(<PositionTable result={position("C", [1])} />);
    expect(screen.queryByText(/Belenios|Encrypted/)).not.toBeInTheDocument();
  });
});
