import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test, vi } from "vitest";
import type { BallotPosition } from "@evoting/shared";
import type { PositionVoteStatus } from "../../data/vote-status";
import { VoteCard } from "./VoteCard";

const NOW = Date.parse("2026-03-10T12:00:00.000Z");
const candidate = (id: string, name: string) => ({
  _id: id,
  name,
  photo: null,
  position: { _id: "p1", title: "President" },
  positionId: "p1",
  positionTitle: "President",
});
const position: BallotPosition = {
  _id: "p1",
  title: "President",
  startTime: "2026-03-10T09:00:00.000Z",
  endTime: "2026-03-10T15:00:00.000Z",
  candidates: [candidate("c1", "Amaka Nwosu"), candidate("c2", "Tunde Bakare")],
  ballotTicket: "ticket",
};

function renderCard(status: PositionVoteStatus = { kind: "not-voted" }, overrides: Partial<BallotPosition> = {}, now = NOW) {
  const onCast = vi.fn();
  const view = render(<VoteCard position={{ ...position, ...overrides }} status={status} now={now} onCast={onCast} />);
  return { onCast, ...view };
}

describe("VoteCard", () => {
  test("one radio group, radios named by candidate, hint, Cast Vote disabled until a choice", async () => {
    const { onCast } = renderCard();
    const group = screen.getByRole("radiogroup", { name: "President" });
    expect(group).toBeInTheDocument();
    const radios = screen.getAllByRole("radio");
    expect(radios.map((r) => r.getAttribute("name"))).toEqual(["position-p1", "position-p1"]);
    expect(screen.getByText("Select one candidate for this position")).toBeInTheDocument();
    const cast = screen.getByRole("button", { name: "Cast Vote" });
    expect(cast).toBeDisabled();

    await userEvent.click(screen.getByRole("radio", { name: "Tunde Bakare" }));
    expect(screen.getByRole("radio", { name: "Tunde Bakare" })).toBeChecked();
    expect(cast).toBeEnabled();
    await userEvent.click(cast);
    await waitFor(() => expect(onCast).toHaveBeenCalledWith({ candidateId: "c2", candidateName: "Tunde Bakare" }));
  });

  test("casting: 'Casting Vote...', button and choices disabled", () => {
    renderCard({ kind: "casting" });
    expect(screen.getByRole("button", { name: "Casting Vote..." })).toBeDisabled();
    for (const radio of screen.getAllByRole("radio")) expect(radio).toBeDisabled();
  });

  test("voted: 'Vote Cast', '✓ Your vote has been recorded', the choice shown and locked", () => {
    renderCard({ kind: "voted", vote: { positionId: "p1", candidateId: "c1", candidateName: "Amaka Nwosu" } });
    expect(screen.getByRole("button", { name: "Vote Cast" })).toBeDisabled();
    expect(screen.getByText(/✓ Your vote has been recorded/)).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Amaka Nwosu" })).toBeChecked();
    for (const radio of screen.getAllByRole("radio")) expect(radio).toBeDisabled();
  });

  test("an upcoming position cannot be voted and says when it opens, zone named", () => {
    renderCard({ kind: "not-voted" }, {}, Date.parse("2026-03-10T08:00:00.000Z"));
    expect(screen.getByText(/^Voting for this position has not started yet\. It opens on \w{3}, \d{1,2} \w{3} 2026, \d{2}:\d{2} GMT([+-]\d{1,2}(:\d{2})?)?\.$/)).toBeInTheDocument();
    expect(screen.getByText("upcoming")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Cast Vote" })).toBeDisabled();
    for (const radio of screen.getAllByRole("radio")) expect(radio).toBeDisabled();
  });

  test("an ended position says when it closed", () => {
    renderCard({ kind: "not-voted" }, {}, Date.parse("2026-03-10T15:00:01.000Z"));
    expect(screen.getByText(/^Voting for this position has ended\. It closed on \w{3}, \d{1,2} \w{3} 2026, \d{2}:\d{2} GMT([+-]\d{1,2}(:\d{2})?)?\.$/)).toBeInTheDocument();
    expect(screen.getByText("ended")).toBeInTheDocument();
  });

  test("the window is inclusive: still active at the end instant", () => {
    renderCard({ kind: "not-voted" }, {}, Date.parse(position.endTime));
    expect(screen.getByText("active")).toBeInTheDocument();
  });

  test("no candidates: docs/product.md's empty text and no button", () => {
    renderCard({ kind: "not-voted" }, { candidates: [] });
    expect(screen.getByText("No candidates available for this position.")).toBeInTheDocument();
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });

  test("queued and refused votes are shown, not dropped", () => {
    const vote = { positionId: "p1", candidateId: "c1", candidateName: "Amaka Nwosu" };
    const { unmount } = renderCard({ kind: "queued", vote });
    expect(screen.getByRole("button", { name: "Queued" })).toBeDisabled();
    expect(screen.getAllByText("Queued")).toHaveLength(2); // the badge and the button
    expect(screen.getByText(/Saved on this device, will be sent when you are back online/)).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Amaka Nwosu" })).toBeChecked();
    unmount();
    renderCard({ kind: "failed", vote, message: "Voting for this position has ended" });
    expect(screen.getByRole("alert")).toHaveTextContent("Your vote for Amaka Nwosu was not accepted: Voting for this position has ended");
    // Refused: the card is open for a new choice.
    expect(screen.getByRole("radio", { name: "Tunde Bakare" })).toBeEnabled();
  });

  test("a queued vote that was not needed shows the server's choice and says so", () => {
    const vote = { positionId: "p1", candidateId: "c2", candidateName: "Tunde Bakare" };
    renderCard({ kind: "voted", vote, note: "You had already voted for this position, so your queued vote was not needed." });
    expect(screen.getByRole("button", { name: "Vote Cast" })).toBeDisabled();
    expect(screen.getByRole("radio", { name: "Tunde Bakare" })).toBeChecked();
    expect(screen.getByText(/your queued vote was not needed/)).toBeInTheDocument();
  });
});
