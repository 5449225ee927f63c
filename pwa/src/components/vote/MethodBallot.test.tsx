/** Several-seat, ranked and referendum ballots on the vote card: their controls, the review, what is cast. */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test, vi } from "vitest";
import type { BallotPosition } from "@evoting/shared";
import type { PositionVoteStatus } from "../../data/vote-status";
import { openPosition } from "../../test/ballot";
import { VoteCard } from "./VoteCard";
import { EMPTY_DRAFT, ordinal, setRank, toggleMark } from "./method-draft";

function renderCard(position: BallotPosition, status: PositionVoteStatus = { kind: "not-voted" }) {
  const onCast = vi.fn();
  render(<VoteCard position={position} status={status} now={Date.now()} onCast={onCast} />);
  return { onCast, user: userEvent.setup() };
}

const names = ["Ada", "Grace", "Linus", "Margaret"];

describe("several seats", () => {
  test("up to `seats` marks, how many are left, a review of exactly what is cast, then Cast Vote", async () => {
    const { onCast, user } = renderCard(openPosition("p1", "Class Reps", names, { method: "multi", seats: 2 }));
    expect(screen.getByText("Choose up to 2 candidates for this position")).toBeInTheDocument();
    expect(screen.getByText("2 of 2 choices left")).toBeInTheDocument();
    const review = screen.getByRole("button", { name: "Review Vote" });
    expect(review).toBeDisabled();
    await user.click(screen.getByRole("checkbox", { name: "Grace" }));
    expect(screen.getByText("1 of 2 choices left")).toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: "Ada" }));
    expect(screen.getByText("All 2 choices used: unmark one to choose another.")).toBeInTheDocument();
    // A third mark cannot be made.
    expect(screen.getByRole("checkbox", { name: "Linus" })).toBeDisabled();

    await user.click(review);
    const panel = screen.getByRole("region", { name: "Review your vote" });
    expect(within(panel).getByText("You are voting for 2 of 2 seats:")).toBeInTheDocument();
    expect(within(panel).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Grace", "Ada"]);
    expect(onCast).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Cast Vote" }));
    await waitFor(() =>
      expect(onCast).toHaveBeenCalledWith({ candidateId: "", candidateName: "Grace", candidateIds: ["p1-c1", "p1-c0"], candidateNames: ["Grace", "Ada"] }),
    );
  });

  test("changing a mark after the review hides it: the review always shows the ballot as it stands", async () => {
    const { user } = renderCard(openPosition("p1", "Class Reps", names, { method: "multi", seats: 2 }));
    await user.click(screen.getByRole("checkbox", { name: "Ada" }));
    await user.click(screen.getByRole("button", { name: "Review Vote" }));
    await user.click(screen.getByRole("button", { name: "Change" }));
    expect(screen.queryByRole("region", { name: "Review your vote" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Review Vote" }));
    await user.click(screen.getByRole("checkbox", { name: "Linus" }));
    expect(screen.queryByRole("region", { name: "Review your vote" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Review Vote" })).toBeEnabled();
  });

  test("a recorded ballot shows every mark, locked", () => {
    renderCard(openPosition("p1", "Class Reps", names, { method: "multi", seats: 2 }), {
      kind: "voted",
      vote: { positionId: "p1", candidateId: "p1-c2", candidateName: "Linus", candidateIds: ["p1-c2", "p1-c3"], candidateNames: ["Linus", "Margaret"] },
    });
    expect(screen.getByText(/for Linus, Margaret/)).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Linus" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Ada" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Vote Cast" })).toBeDisabled();
  });
});

describe("ranked", () => {
  test("a rank select per candidate, reached by keyboard; ranks never repeat or skip; the review lists the order", async () => {
    const { onCast, user } = renderCard(openPosition("p1", "Chair", names, { method: "ranked", seats: 1 }));
    expect(screen.getByText(/Rank the candidates in your order of preference/)).toBeInTheDocument();
    const rank = (name: string) => screen.getByRole("combobox", { name: `Rank for ${name}` });
    // Keyboard: Tab moves from one candidate's rank to the next (no drag-and-drop anywhere).
    rank("Ada").focus();
    await user.tab();
    expect(rank("Grace")).toHaveFocus();
    // An unranked candidate may take 1st only while nobody is ranked.
    expect(within(rank("Ada")).getAllByRole("option").map((o) => o.textContent)).toEqual(["Not ranked", "1st choice"]);

    await user.selectOptions(rank("Linus"), "1st choice");
    await user.selectOptions(rank("Ada"), "2nd choice");
    // Giving Grace 1st moves the others down one: no rank is held twice.
    await user.selectOptions(rank("Grace"), "1st choice");
    expect(rank("Grace")).toHaveValue("1");
    expect(rank("Linus")).toHaveValue("2");
    expect(rank("Ada")).toHaveValue("3");
    expect(rank("Margaret")).toHaveValue("");
    expect(screen.getByText("Your ranking: 1st Grace, 2nd Linus, 3rd Ada")).toBeInTheDocument();
    // Taking Linus out closes the gap.
    await user.selectOptions(rank("Linus"), "Not ranked");
    expect(rank("Ada")).toHaveValue("2");

    await user.click(screen.getByRole("button", { name: "Review Vote" }));
    const panel = screen.getByRole("region", { name: "Review your vote" });
    expect(within(panel).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["1st Grace", "2nd Ada"]);
    expect(within(panel).getByText("Candidates you did not rank get no preference from this ballot.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Cast Vote" }));
    await waitFor(() => expect(onCast).toHaveBeenCalledWith(expect.objectContaining({ ranking: ["p1-c1", "p1-c0"], candidateNames: ["Grace", "Ada"] })));
  });

  test("a recorded ranking reads in order", () => {
    renderCard(openPosition("p1", "Chair", names, { method: "ranked" }), {
      kind: "queued",
      vote: { positionId: "p1", candidateId: "p1-c3", candidateName: "Margaret", candidateIds: ["p1-c3", "p1-c0"], candidateNames: ["Margaret", "Ada"] },
    });
    expect(screen.getByText(/your choice: 1\. Margaret, 2\. Ada/)).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Rank for Margaret" })).toHaveValue("1");
    expect(screen.getByRole("combobox", { name: "Rank for Ada" })).toBeDisabled();
  });

  test("Abstain where allowed replaces the ranking", async () => {
    const { onCast, user } = renderCard(openPosition("p1", "Chair", names, { method: "ranked", allowAbstain: true }));
    await user.selectOptions(screen.getByRole("combobox", { name: "Rank for Ada" }), "1st choice");
    await user.click(screen.getByRole("checkbox", { name: /Abstain/ }));
    expect(screen.getByRole("combobox", { name: "Rank for Ada" })).toHaveValue("");
    expect(screen.getByRole("combobox", { name: "Rank for Ada" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Review Vote" }));
    expect(screen.getByText("You are abstaining: this ballot chooses nobody.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Cast Vote" }));
    await waitFor(() => expect(onCast).toHaveBeenCalledWith({ candidateId: "", candidateName: "Abstain", choice: "abstain" }));
  });
});

describe("referendum", () => {
  test("the question, Yes / No / Abstain, no candidates needed; the review names the answer", async () => {
    const { onCast, user } = renderCard(openPosition("p1", "Amendment", [], { method: "referendum", question: "Amend article 4?", allowAbstain: true }));
    expect(screen.queryByText("No candidates available for this position.")).not.toBeInTheDocument();
    const group = screen.getByRole("radiogroup", { name: /Amend article 4\?/ });
    expect(within(group).getAllByRole("radio").map((r) => (r as HTMLInputElement).value)).toEqual(["yes", "no", "abstain"]);
    await user.click(within(group).getByRole("radio", { name: "Yes" }));
    await user.click(screen.getByRole("button", { name: "Review Vote" }));
    const panel = screen.getByRole("region", { name: "Review your vote" });
    expect(panel).toHaveTextContent("Amend article 4?");
    expect(panel).toHaveTextContent("Your answer: Yes");
    await user.click(screen.getByRole("button", { name: "Cast Vote" }));
    await waitFor(() => expect(onCast).toHaveBeenCalledWith({ candidateId: "", candidateName: "Yes", choice: "yes" }));
  });

  test("no Abstain unless the position allows it", () => {
    renderCard(openPosition("p1", "Amendment", [], { method: "referendum", question: "Amend?" }));
    expect(screen.getAllByRole("radio").map((r) => (r as HTMLInputElement).value)).toEqual(["yes", "no"]);
  });
});

describe("the draft's rules", () => {
  test("marks stop at the seats; ranks stay 1..n without repeats; ordinals read as English", () => {
    let d = toggleMark(toggleMark(EMPTY_DRAFT, "a", 2), "b", 2);
    expect(toggleMark(d, "c", 2)).toBe(d);
    expect(toggleMark(d, "a", 2).marks).toEqual(["b"]);
    d = setRank(setRank(setRank(EMPTY_DRAFT, "a", 1), "b", 2), "c", 9);
    expect(d.marks).toEqual(["a", "b", "c"]);
    expect(setRank(d, "c", 1).marks).toEqual(["c", "a", "b"]);
    expect(setRank(d, "a", null).marks).toEqual(["b", "c"]);
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101].map(ordinal)).toEqual(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st"]);
  });
});
