/** The vote page: eligibility, Yes/No on an unopposed position, abstain, manifestos. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import type { BallotPosition } from "@evoting/shared";
import { renderWithQuery } from "../test/render";
import { openPosition, votePageServer } from "../test/ballot";
import { AppToaster } from "../components/AppToaster";
import { VotePage } from "./VotePage";

// The first candidate of each position has a manifesto (with markup that must stay text).
const open = (id: string, title: string, names: string[], extra: Partial<BallotPosition> = {}) =>
  openPosition(id, title, names, extra, (i) => ({ manifesto: i === 0 ? "More labs.\n<b>Not bold</b>" : null }));

function renderBallot(positions: BallotPosition[]) {
  const fetch = votePageServer(positions);
  renderWithQuery(
    <>
      <VotePage />
      <AppToaster />
    </>,
  );
  const posted = () => fetch.mock.calls.filter(([, init]) => init?.method === "POST").map(([, init]) => JSON.parse(init!.body as string));
  return { posted };
}

describe("vote page ballot rules", () => {
  test("a position the voter is not eligible for is not on their ballot", async () => {
    renderBallot([open("p1", "President", ["Amaka Nwosu", "Tunde Bakare"]), open("p2", "300L Rep", ["Ngozi"], { eligible: false })]);
    expect(await screen.findByRole("form", { name: "President" })).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "300L Rep" })).not.toBeInTheDocument();
    expect(screen.queryByText("300L Rep")).not.toBeInTheDocument();
  });

  test("by default (docs/product.md) a lone candidate is an ordinary card: its radio, no Yes/No", async () => {
    const { posted } = renderBallot([open("p1", "President", ["Amaka Nwosu"])]);
    const card = await screen.findByRole("form", { name: "President" });
    expect(within(card).getByText("Select one candidate for this position")).toBeInTheDocument();
    expect(within(card).getAllByRole("radio").map((r) => r.getAttribute("value"))).toEqual(["p1-c0"]);
    expect(within(card).queryByRole("radio", { name: "No" })).not.toBeInTheDocument();
    await userEvent.click(within(card).getByRole("radio", { name: "Amaka Nwosu" }));
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByRole("button", { name: "Vote Cast" })).toBeDisabled();
    expect(posted()).toEqual([{ positionId: "p1", candidateId: "p1-c0", ballotTicket: "ticket-p1" }]);
  });

  test("unopposed in yes-no mode: the candidate with 'Yes' and 'No'; No is sent as the choice and shown as recorded", async () => {
    const { posted } = renderBallot([open("p1", "President", ["Amaka Nwosu"], { yesNo: true })]);
    const card = await screen.findByRole("form", { name: "President" });
    expect(within(card).getByText("Amaka Nwosu")).toBeInTheDocument();
    expect(within(card).getAllByRole("radio").map((r) => r.getAttribute("value"))).toEqual(["p1-c0", "choice:no"]);
    await userEvent.click(within(card).getByRole("radio", { name: "No" }));
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByText(/for No/)).toBeInTheDocument();
    expect(within(card).getByRole("radio", { name: "No" })).toBeChecked();
    expect(posted()).toEqual([{ positionId: "p1", choice: "no", ballotTicket: "ticket-p1" }]);
  });

  test("Yes is a vote for the candidate", async () => {
    const { posted } = renderBallot([open("p1", "President", ["Amaka Nwosu"], { yesNo: true })]);
    const card = await screen.findByRole("form", { name: "President" });
    await userEvent.click(within(card).getByRole("radio", { name: "Yes" }));
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByRole("button", { name: "Vote Cast" })).toBeDisabled();
    expect(posted()).toEqual([{ positionId: "p1", candidateId: "p1-c0", ballotTicket: "ticket-p1" }]);
    // The choices lock; the manifesto can still be read.
    expect(within(card).getByRole("radio", { name: "No" })).toBeDisabled();
    expect(within(card).getByRole("button", { name: "Read manifesto: Amaka Nwosu" })).toBeEnabled();
  });

  test("'Abstain' where allowed: sent as the choice, the position counts as done", async () => {
    const { posted } = renderBallot([open("p1", "President", ["Amaka Nwosu", "Tunde Bakare"], { allowAbstain: true }), open("p2", "Secretary", ["A", "B"])]);
    const card = await screen.findByRole("form", { name: "President" });
    expect(within(screen.getByRole("form", { name: "Secretary" })).queryByRole("radio", { name: "Abstain" })).not.toBeInTheDocument();
    await userEvent.click(within(card).getByRole("radio", { name: "Abstain" }));
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByText(/for Abstain/)).toBeInTheDocument();
    expect(posted()).toEqual([{ positionId: "p1", choice: "abstain", ballotTicket: "ticket-p1" }]);
  });

  test("'Read manifesto' shows the candidate's words as plain text", async () => {
    renderBallot([open("p1", "President", ["Amaka Nwosu", "Tunde Bakare"])]);
    const card = await screen.findByRole("form", { name: "President" });
    expect(within(card).getAllByRole("button", { name: /Read manifesto/ })).toHaveLength(1);
    // It sits in its own candidate's box, with their radio and no other candidate's.
    const box = within(card).getByRole("button", { name: "Read manifesto: Amaka Nwosu" }).closest("[data-testid='ballot-choice']") as HTMLElement;
    expect(box).not.toBeNull();
    expect(within(box).getAllByRole("radio").map((r) => r.getAttribute("value"))).toEqual(["p1-c0"]);
    expect(within(box).getByText("Amaka Nwosu")).toBeInTheDocument();
    await userEvent.click(within(card).getByRole("button", { name: "Read manifesto: Amaka Nwosu" }));
    const dialog = await screen.findByRole("dialog", { name: "Amaka Nwosu: manifesto" });
    expect(within(dialog).getByText(/<b>Not bold<\/b>/)).toBeInTheDocument();
    expect(dialog.querySelector("b")).toBeNull();
  });
});
