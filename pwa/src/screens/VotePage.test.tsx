import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import { openPosition, votePageServer } from "../test/ballot";
import { json, mockFetch } from "../test/fetch-mock";
import { renderWithQuery } from "../test/render";
import { AppToaster } from "../components/AppToaster";
import { VotePage } from "./VotePage";

const open = (id: string, title: string, names: string[]) => openPosition(id, title, names);

describe("VotePage", () => {
  test("loading, then cards and the status card; casting sends a UUID key and the ticket", async () => {
    const positions = [open("p1", "President", ["Amaka Nwosu", "Tunde Bakare"]), open("p2", "Secretary", [])];
    const fetch = votePageServer(positions);
    renderWithQuery(
      <>
        <VotePage />
        <AppToaster />
      </>,
    );
    expect(screen.getByText("Loading positions...")).toBeInTheDocument();
    expect(await screen.findByText("Select a candidate for each position. Your vote is final.")).toBeInTheDocument();
    const card = await screen.findByRole("form", { name: "President" });
    expect(screen.getByText("No candidates available for this position.")).toBeInTheDocument();

    const status = screen.getByText("Your Voting Status").closest("div.rounded-2xl") as HTMLElement;
    expect(within(status).getAllByText("Pending")).toHaveLength(2);
    expect(within(status).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "0");

    await userEvent.click(within(card).getByRole("radio", { name: "Amaka Nwosu" }));
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByRole("button", { name: "Vote Cast" })).toBeDisabled();
    expect(within(card).getByText(/✓ Your vote has been recorded/)).toBeInTheDocument();
    expect(await screen.findByText("Vote cast successfully!")).toBeInTheDocument();
    expect(within(status).getByText("Voted")).toBeInTheDocument();
    expect(within(status).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "1");

    const post = fetch.mock.calls.find(([, init]) => init?.method === "POST")!;
    const headers = post[1]!.headers as Record<string, string>;
    expect(headers["Idempotency-Key"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(JSON.parse(post[1]!.body as string)).toEqual({ positionId: "p1", candidateId: "p1-c0", ballotTicket: "ticket-p1" });
  });

  test("a ranked position: ranks, the review, then the ranking is sent and shown as recorded in order", async () => {
    const fetch = votePageServer([openPosition("p1", "Chair", ["Ada", "Grace", "Linus"], { method: "ranked", seats: 1 })]);
    renderWithQuery(
      <>
        <VotePage />
        <AppToaster />
      </>,
    );
    const card = await screen.findByRole("form", { name: "Chair" });
    await userEvent.selectOptions(within(card).getByRole("combobox", { name: "Rank for Linus" }), "1st choice");
    await userEvent.selectOptions(within(card).getByRole("combobox", { name: "Rank for Ada" }), "2nd choice");
    await userEvent.click(within(card).getByRole("button", { name: "Review Vote" }));
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByRole("button", { name: "Vote Cast" })).toBeDisabled();
    expect(within(card).getByText(/for 1\. Linus, 2\. Ada/)).toBeInTheDocument();
    expect(await screen.findByText("Vote cast successfully!")).toBeInTheDocument();
    const post = fetch.mock.calls.find(([, init]) => init?.method === "POST")!;
    expect(JSON.parse(post[1]!.body as string)).toEqual({ positionId: "p1", ranking: ["p1-c2", "p1-c0"], ballotTicket: "ticket-p1" });
  });

  test("a refused vote shows the server's message and the card stays open", async () => {
    mockFetch({
      // Two candidates: a lone candidate is a Yes/No ballot (VoteChoices.test.tsx).
      "GET /api/vote/positions": () => json([open("p1", "President", ["Amaka Nwosu", "Tunde Bakare"])]),
      "GET /api/vote/my-votes": () => json([]),
      "POST /api/vote": () => json({ message: "Voting for this position has ended" }, 403),
    });
    renderWithQuery(
      <>
        <VotePage />
        <AppToaster />
      </>,
    );
    const card = await screen.findByRole("form", { name: "President" });
    await userEvent.click(within(card).getByRole("radio", { name: "Amaka Nwosu" }));
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await screen.findByText("Voting for this position has ended")).toBeInTheDocument();
    await waitFor(() => expect(within(card).getByRole("button", { name: "Cast Vote" })).toBeEnabled());
  });

  test("'Could not load positions.' when the ballot fails", async () => {
    mockFetch({
      "GET /api/vote/positions": () => json({ message: "nope" }, 500),
      "GET /api/vote/my-votes": () => json([]),
    });
    renderWithQuery(<VotePage />);
    expect(await screen.findByText("Could not load positions.", {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
