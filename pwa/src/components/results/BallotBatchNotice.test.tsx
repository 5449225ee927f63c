import { render, screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import type { PositionResult, Results } from "@evoting/shared";
import { BallotBatchNotice } from "./BallotBatchNotice";

const position = (title: string, waiting?: number): PositionResult => ({
  positionId: title,
  positionTitle: title,
  totalVotes: 10,
  breakdown: [],
  ...(waiting ? { waiting } : {}),
});
const results = (ballotBatch: number | undefined, positions: PositionResult[]): Results => ({
  totalRegisteredVoters: 40,
  totalVotesCast: 20,
  results: positions,
  generatedAt: "2026-01-01T00:00:00.000Z",
  ...(ballotBatch ? { ballotBatch } : {}),
});

describe("the ballot batch notice", () => {
  test("says nothing when each vote is added as it comes (the results carry no batch)", () => {
    const { container } = render(<BallotBatchNotice results={results(undefined, [position("President")])} />);
    expect(container).toBeEmptyDOMElement();
  });

  test("says votes move in groups, and that none wait", () => {
    render(<BallotBatchNotice results={results(10, [position("President")])} />);
    expect(screen.getByRole("note")).toHaveTextContent(
      "Votes are added to the results in groups of 10 per position, to protect the secret ballot. No votes are waiting.",
    );
  });

  test("counts the votes waiting, per position when several wait", () => {
    const { unmount } = render(<BallotBatchNotice results={results(10, [position("President", 1), position("Secretary")])} />);
    expect(screen.getByRole("note")).toHaveTextContent("1 vote is waiting to be added. A position's remaining votes are added as soon as it closes, after the grace for votes cast offline.");
    unmount();
    render(<BallotBatchNotice results={results(25, [position("President", 3), position("Secretary", 7)])} />);
    expect(screen.getByRole("note")).toHaveTextContent(
      "groups of 25 per position, to protect the secret ballot. 10 votes are waiting to be added (President: 3, Secretary: 7). A position's remaining votes are added as soon as it closes, after the grace for votes cast offline.",
    );
  });
});
