/** The returning officer's controls: deleting a position that holds ballots, seats, closing and declaring. */
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test } from "vitest";
import { messages, type CurrentElectionStatus, type Position, type Results, type ResultsSheet, type UserProfile } from "@evoting/shared";
import { ResultsOverview } from "../../components/results/ResultsOverview";
import { PrintedSheet } from "../../components/results/PrintedSheet";
import { ElectionLifecycleCard } from "../../components/admin/ElectionLifecycleCard";
import { formatShortDateTime } from "../../lib/format";
import { HomeVoteCard } from "../../components/vote/HomeVoteCard";
import { openPosition } from "../../test/ballot";
import { VotingStatusCard } from "../../components/vote/VotingStatusCard";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderRoute, renderWithQuery } from "../../test/render";
import { session } from "../../auth/session";
import { ManagePositionsPage } from "./ManagePositionsPage";
import { CreatePositionPage } from "./CreatePositionPage";

const admin: UserProfile = { _id: "a1", name: "Admin", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true };
afterEach(() => session.clear());
const H = 3_600_000;

const position = (over: Partial<Position>): Position => ({
  _id: "p1",
  title: "President",
  startTime: new Date(Date.now() - H).toISOString(),
  endTime: new Date(Date.now() + H).toISOString(),
  candidates: [],
  method: "single",
  seats: 1,
  ballots: 0,
  ...over,
});

describe("Delete Position", () => {
  test("a position holding ballots says how many and offers no delete; one without keeps the baseline's dialog", async () => {
    session.signIn("token-123456789012345678901", admin);
    const deletes: string[] = [];
    mockFetch({
      "GET /api/admin/positions": () => json([position({ ballots: 21 }), position({ _id: "p2", title: "Treasurer" })]),
      "DELETE /api/admin/positions/p2": () => {
        deletes.push("p2");
        return json({ message: messages.deletePositionSuccess });
      },
    });
    renderRoute(ManagePositionsPage, "/admin/manage-positions");
    const u = userEvent.setup();
    await screen.findByText("President", {}, { timeout: 8000 });

    await u.click(screen.getByRole("button", { name: "Delete President" }));
    const held = await screen.findByRole("dialog", { name: "Delete Position" });
    expect(within(held).getByText(/holds 21 ballots and cannot be deleted/)).toBeInTheDocument();
    expect(within(held).queryByRole("button", { name: "Delete Position" })).not.toBeInTheDocument();
    expect(within(held).queryByText(/Are you sure/)).not.toBeInTheDocument();
    await u.click(within(held).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    await u.click(screen.getByRole("button", { name: "Delete Treasurer" }));
    const free = await screen.findByRole("dialog", { name: "Delete Position" });
    expect(within(free).getByText('Are you sure you want to delete the position "Treasurer"?')).toBeInTheDocument();
    expect(within(free).getByText("All associated candidates (0) will also be deleted.")).toBeInTheDocument();
    await u.click(within(free).getByRole("button", { name: "Delete Position" }));
    expect(await screen.findByText(messages.deletePositionSuccess)).toBeInTheDocument();
    expect(deletes).toEqual(["p2"]);
  });
});

describe("Create Position's seats", () => {
  test("a ranked position starts at one seat, the review says so before saving, and the request carries it", async () => {
    session.signIn("token-123456789012345678901", admin);
    const posts: Record<string, unknown>[] = [];
    mockFetch({
      "POST /api/admin/positions": ({ body }) => {
        posts.push(JSON.parse(String(body)));
        return json({ _id: "p9", message: messages.createPositionSuccess }, 201);
      },
    });
    renderRoute(CreatePositionPage, "/admin/positions");
    const u = userEvent.setup();
    const local = (ms: number) => {
      const d = new Date(ms);
      const pad = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    };
    await u.type(await screen.findByLabelText("Position Title", {}, { timeout: 8000 }), "Sports Director");
    await u.type(screen.getByLabelText("Start Time"), local(Date.now() + H));
    await u.type(screen.getByLabelText("End Time"), local(Date.now() + 3 * H));
    await u.selectOptions(screen.getByLabelText("Voting Method"), "Ranked choice");
    expect(screen.getByLabelText("Seats")).toHaveValue(1);
    const review = screen.getByText("This position will elect 1 candidate (1 seat).");
    expect(review).toHaveAttribute("role", "status");
    await u.clear(screen.getByLabelText("Seats"));
    expect(review).toHaveTextContent("Enter how many seats this position fills.");
    await u.type(screen.getByLabelText("Seats"), "2");
    expect(review).toHaveTextContent("This position will elect 2 candidates (2 seats).");
    await u.clear(screen.getByLabelText("Seats"));
    await u.type(screen.getByLabelText("Seats"), "1");
    await u.click(screen.getByRole("button", { name: "Create Position" }));
    expect(await screen.findByText(messages.createPositionSuccess)).toBeInTheDocument();
    expect(posts[0]).toMatchObject({ title: "Sports Director", method: "ranked", seats: 1 });
  });
});

describe("provisional results", () => {
  const results = (provisional: boolean): Results => ({
    totalRegisteredVoters: 10,
    totalVotesCast: 3,
    generatedAt: new Date().toISOString(),
    provisional,
    results: [
      { positionId: "p1", positionTitle: "President", totalVotes: 3, breakdown: [{ candidateId: "c1", name: "Ada Obi", photo: null, votes: 2 }, { candidateId: "c2", name: "Ben Uzo", photo: null, votes: 1 }] },
      { positionId: "p2", positionTitle: "Class Reps", totalVotes: 3, method: "multi", seats: 1, elected: ["c3"], breakdown: [{ candidateId: "c3", name: "Cy Eke", photo: null, votes: 3 }] },
      { positionId: "p3", positionTitle: "Amendment", totalVotes: 3, method: "referendum", question: "Amend?", passThreshold: 0.5, referendum: { yes: 2, no: 1, abstentions: 0, passed: true }, breakdown: [] },
    ],
  });
  const sheet = (provisional: boolean): ResultsSheet => ({
    producedAt: new Date().toISOString(),
    results: results(provisional),
    csvSha256: "ab".repeat(32),
    audit: { entries: 3, headSeq: 3, head: "cd".repeat(32) },
  });

  test("before the declaration every card says who leads and the figures are provisional; nobody is 'Elected'", () => {
    const { unmount } = renderWithQuery(<ResultsOverview results={results(true)} />);
    expect(screen.getByTestId("provisional-notice")).toHaveTextContent("Provisional results. These figures may still change: nobody is elected until the results are declared.");
    expect(screen.getAllByText("Leading: Cy Eke").length).toBeGreaterThan(0);
    expect(screen.getAllByText("Passing so far").length).toBeGreaterThan(0);
    expect(screen.queryByText(/Elected/)).not.toBeInTheDocument();
    expect(screen.queryByText(/^Passed$/)).not.toBeInTheDocument();
    unmount();

    renderWithQuery(<ResultsOverview results={results(false)} />);
    expect(screen.queryByTestId("provisional-notice")).not.toBeInTheDocument();
    expect(screen.getAllByText("Elected: Cy Eke").length).toBeGreaterThan(0);
    expect(screen.getAllByText("Passed").length).toBeGreaterThan(0);
  });

  test("with no vote cast there are no figures to call provisional: only 'No votes have been cast yet.'", () => {
    const none: Results = { ...results(true), totalVotesCast: 0, results: results(true).results.map((r) => ({ ...r, totalVotes: 0, breakdown: r.breakdown.map((b) => ({ ...b, votes: 0 })), ...(r.referendum ? { referendum: { yes: 0, no: 0, abstentions: 0, passed: false } } : {}) })) };
    renderWithQuery(<ResultsOverview results={none} />);
    expect(screen.getByText("No votes have been cast yet.")).toBeInTheDocument();
    expect(screen.queryByTestId("provisional-notice")).not.toBeInTheDocument();
  });

  test("the printed sheet is headed 'Provisional results' until the declaration, then 'Official results' with lines to sign", () => {
    const { unmount } = render(<PrintedSheet sheet={sheet(true)} actions={null} />);
    expect(screen.getByText("Provisional results")).toBeInTheDocument();
    expect(screen.queryByText(/official/i)).not.toBeInTheDocument();
    expect(screen.getByTestId("outcome-p1")).toHaveTextContent("Leading: Ada Obi");
    expect(screen.queryByRole("region", { name: "Signatures" })).not.toBeInTheDocument();
    unmount();

    render(<PrintedSheet sheet={sheet(false)} actions={null} />);
    expect(screen.getByText("Official results")).toBeInTheDocument();
    expect(screen.getByTestId("outcome-p1")).toHaveTextContent("Elected: Ada Obi");
    const signatures = screen.getByRole("region", { name: "Signatures" });
    for (const line of ["Returning officer: name", "Witness or agent 1: name", "Witness or agent 2: name"]) expect(within(signatures).getByText(line)).toBeInTheDocument();
    expect(within(signatures).getAllByText("Date and time")).toHaveLength(3);
  });
});

describe("figures that agree", () => {
  const base = { totalRegisteredVoters: 200, generatedAt: new Date().toISOString(), provisional: true, ballotBatch: 10 };

  test("votes cast but waiting for their group: the tiles, the notice and the empty state say the same", () => {
    const results: Results = {
      ...base,
      totalVotesCast: 1,
      results: [{ positionId: "p1", positionTitle: "President", totalVotes: 0, waiting: 1, breakdown: [{ candidateId: "c1", name: "Ada Obi", photo: null, votes: 0 }] }],
    };
    renderWithQuery(<ResultsOverview results={results} />);
    expect(screen.getByTestId("tile-Votes Cast")).toHaveTextContent("1");
    expect(screen.queryByText("No votes have been cast yet.")).not.toBeInTheDocument();
    expect(screen.getByText("No votes have been added to the results yet.")).toBeInTheDocument();
    expect(screen.getByText(/1 vote is waiting to be added/)).toBeInTheDocument();
  });

  test("a several-seat candidate has the same share on Top Candidates as on the position's card (of its ballots)", async () => {
    const { topCandidates } = await import("@evoting/shared");
    // 11 ballots marked 22 times for 2 seats: Ada's 6 marks are 54.5% of the ballots, not 27.3% of the marks.
    const reps = {
      positionId: "reps",
      positionTitle: "Class Reps",
      totalVotes: 11,
      method: "multi" as const,
      seats: 2,
      breakdown: [
        { candidateId: "a", name: "Ada", photo: null, votes: 6 },
        { candidateId: "b", name: "Ben", photo: null, votes: 6 },
        { candidateId: "c", name: "Cy", photo: null, votes: 5 },
        { candidateId: "d", name: "Dee", photo: null, votes: 5 },
      ],
    };
    expect(topCandidates([reps])[0].percentage.toFixed(1)).toBe("54.5");
  });
});

describe("Close voting now, then Declare results", () => {
  test("closing is confirmed and sent; 'Declare results' stays disabled and says when, in local time, until it can succeed", async () => {
    session.signIn("token-123456789012345678901", admin);
    const now = Date.now();
    const election = { id: 1, title: "SUG Elections", subtitle: "", startTime: new Date(now - H).toISOString(), endTime: new Date(now + 8 * H).toISOString(), state: "open" as const, declaredAt: null };
    let status: CurrentElectionStatus = { election, declarableAt: new Date(now + 8 * H + 600_000).toISOString(), hasVotes: true, closable: true };
    const closes: number[] = [];
    mockFetch({
      "GET /api/admin/elections/current": () => json(status),
      "POST /api/admin/election/close": () => {
        closes.push(1);
        status = { ...status, closable: false, declarableAt: new Date(now + 600_000).toISOString() };
        return json({ message: messages.votingClosed, closedAt: new Date(now).toISOString(), positions: ["President"] });
      },
    });
    renderRoute(() => <ElectionLifecycleCard canWrite />, "/admin");
    const u = userEvent.setup();
    const declare = await screen.findByRole("button", { name: "Declare results" }, { timeout: 8000 });
    expect(declare).toBeDisabled();
    expect(declare).toHaveAccessibleDescription(`SUG Elections: voting is open. Results can be declared from ${formatShortDateTime(status.declarableAt)}, after voting closes and the grace for offline votes.`);

    await u.click(screen.getByRole("button", { name: "Close voting now" }));
    const dialog = await screen.findByRole("dialog", { name: "Close voting now?" });
    expect(within(dialog).getByText(/Votes cast offline before now are still accepted/)).toBeInTheDocument();
    await u.click(within(dialog).getByRole("button", { name: "Close voting now" }));
    expect(await screen.findByText(/^Voting closed at \d\d:\d\d$/)).toBeInTheDocument();
    expect(closes).toEqual([1]);
    await screen.findByText(/voting has closed\. Results can be declared from/);
    expect(screen.queryByRole("button", { name: "Close voting now" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Declare results" })).toBeDisabled();
  });
});

const HomeOnly = () => (
  <main>
    <HomeVoteCard />
  </main>
);

describe("Home: the voter's way to the ballot", () => {
  const voter: UserProfile = { _id: "v1", name: "Tola Ade", role: "voter", matricNumber: "2023/5570601", email: null, hasPassword: false };
  const vote = (positionId: string) => ({ positionId, candidateId: "c", candidateName: "Ada", receipt: "ABCD-1234" });

  test("'Vote now' with how many positions are left, then 'You have voted in every position' with the receipts and the last declared results", async () => {
    session.signIn("token-123456789012345678901", voter);
    let myVotes = [vote("p1")];
    mockFetch({
      "GET /api/vote/positions": () => json([openPosition("p1", "President", ["Ada", "Ben"]), openPosition("p2", "Treasurer", ["Cy", "Dee"]), openPosition("p3", "Secretary", ["Eve", "Fay"])]),
      "GET /api/vote/my-votes": () => json(myVotes),
      "GET /api/elections": () => json([{ id: 1, title: "SUG Elections 2025", subtitle: "", startTime: "2025-03-01T08:00:00.000Z", endTime: "2025-03-01T16:00:00.000Z", state: "declared", declaredAt: "2025-03-01T17:00:00.000Z" }]),
    });
    const { unmount } = renderRoute(HomeOnly, "/");
    expect(await screen.findByText("You have 2 positions left to vote in.", {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Vote now" })).toHaveAttribute("href", "/vote");
    expect(await screen.findByRole("link", { name: "SUG Elections 2025" })).toHaveAttribute("href", "/elections/1");
    unmount();

    myVotes = [vote("p1"), vote("p2"), vote("p3")];
    renderRoute(HomeOnly, "/");
    expect(await screen.findByText("You have voted in every position.", {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Vote now" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Counted Ballots" })).toHaveAttribute("href", "/receipts");
  });

  test("staff see nothing of it", async () => {
    session.signIn("token-123456789012345678901", admin);
    const fetch = mockFetch({});
    const { client } = renderRoute(HomeOnly, "/");
    await screen.findByRole("main");
    expect(screen.queryByRole("region", { name: "Your ballot" })).not.toBeInTheDocument();
    // No request made and none under way: the card's queries never ran.
    expect(fetch).not.toHaveBeenCalled();
    expect(client.isFetching()).toBe(0);
  });
});

describe("Your Voting Status after a close", () => {
  test("a position that closed without this voter's vote says 'Closed, not voted'; an open one stays 'Pending'", () => {
    const closed = { ...openPosition("p1", "President", ["Ada"]), endTime: new Date(Date.now() - 60_000).toISOString() };
    const open = openPosition("p2", "Treasurer", ["Ben"]);
    render(<VotingStatusCard positions={[closed, open]} statusOf={() => ({ kind: "not-voted" })} now={Date.now()} />);
    expect(screen.getByText("President").closest("li")).toHaveTextContent("Closed, not voted");
    expect(screen.getByText("Treasurer").closest("li")).toHaveTextContent("Pending");
  });
});
