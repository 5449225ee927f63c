/**
 * The offline module wired into the app (fake-indexeddb): reads fall back to this device's copy
 * with the offline notice, a vote cast without a network is queued on the card and delivered
 * when the connection returns, and network-only screens are disabled offline.
 */
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { toast } from "sonner";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { BallotPosition, MyVote, UserProfile } from "@evoting/shared";
import { offlineDb } from "..";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderRoute, renderWithQuery, testQueryClient } from "../../test/render";
import { AppToaster } from "../../components/AppToaster";
import { OfflineNotices } from "../../components/layout/OfflineNotices";
import { VotePage } from "../../screens/VotePage";
import { CreateUserPage } from "../../screens/admin/CreateUserPage";
import { resetOffline } from "./runtime";
import { connectOutcomes } from "../../data/outcomes";
import { myVotesQuery } from "../../data/queries";
import { session } from "../../auth/session";

const hour = 3_600_000;
const voter: UserProfile = { _id: "u1", name: "Ada", role: "voter", matricNumber: "2021/5570101", email: null, hasPassword: false };
const president: BallotPosition = {
  _id: "p1",
  title: "President",
  startTime: new Date(Date.now() - hour).toISOString(),
  endTime: new Date(Date.now() + hour).toISOString(),
  ballotTicket: "ticket-p1",
  candidates: [
    { _id: "c1", name: "Amaka Nwosu", photo: null, position: { _id: "p1", title: "President" }, positionId: "p1", positionTitle: "President" },
    { _id: "c2", name: "Tunde Bakare", photo: null, position: { _id: "p1", title: "President" }, positionId: "p1", positionTitle: "President" },
  ],
};
const offline = () => {
  throw new TypeError("Failed to fetch");
};

/**
 * The vote page and the toaster over a mocked API with `president` open, reachable while `up()`
 * says so. Resolves to the President card and the vote requests the API received.
 */
async function renderVotePage(up: () => boolean) {
  const votes: MyVote[] = [];
  const posts: { key: string; body: unknown }[] = [];
  mockFetch({
    "GET /api/vote/positions": () => json([president]),
    "GET /api/vote/my-votes": () => (up() ? json(votes) : offline()),
    "GET /api/vote/results": () => json({ totalRegisteredVoters: 1, totalVotesCast: votes.length, results: [], generatedAt: "" }),
    "POST /api/vote": (init) => {
      if (!up()) offline();
      const body = JSON.parse(init.body as string) as { positionId: string; candidateId: string };
      posts.push({ key: (init.headers as Record<string, string>)["Idempotency-Key"]!, body });
      const candidateName = president.candidates.find((c) => c._id === body.candidateId)!.name;
      const receipt = "7K2M9Q4XTB"; // a counted vote's receipt
      const vote = { positionId: body.positionId, candidateId: body.candidateId, candidateName, receipt };
      votes.push(vote);
      return json({ message: "Vote cast successfully!", vote, receipt }, 201);
    },
  });
  const client = testQueryClient();
  connectOutcomes(client);
  renderWithQuery(
    <>
      <VotePage />
      <AppToaster />
    </>,
    client,
  );
  return { card: await screen.findByRole("form", { name: "President" }), posts };
}

beforeEach(() => {
  session.signIn("tok-1", voter);
});

afterEach(async () => {
  // sonner keeps toasts in a module-level store that outlives the rendered Toaster.
  toast.dismiss();
  await resetOffline();
  const db = offlineDb();
  await Promise.all([db.cache, db.marks, db.outbox, db.outcomes].map((table) => table.clear()));
});

describe("offline reads", () => {
  test("network first; when it fails, this device's copy with 'Offline: showing data from HH:MM'", async () => {
    const votes: MyVote[] = [{ positionId: "p1", candidateId: "c1", candidateName: "Amaka Nwosu" }];
    let up = true;
    mockFetch({ "GET /api/vote/my-votes": () => (up ? json(votes) : offline()) });
    const client = testQueryClient();
    renderWithQuery(<OfflineNotices />, client);

    await expect(client.fetchQuery(myVotesQuery())).resolves.toEqual(votes);
    // A good answer is kept once the page is idle (a one-second timer in jsdom).
    await waitFor(async () => expect(await offlineDb().cache.count()).toBe(1), { timeout: 5_000 });
    expect(screen.queryByTestId("offline-notice")).not.toBeInTheDocument();

    up = false;
    await expect(client.fetchQuery({ ...myVotesQuery(), staleTime: 0 })).resolves.toEqual(votes);
    expect(await screen.findByTestId("offline-notice")).toHaveTextContent(/^Offline: showing data from \d{2}:\d{2}$/);
  });

  test("a real answer (401) is not masked by the device's copy", async () => {
    let status = 200;
    mockFetch({ "GET /api/vote/my-votes": () => json(status === 200 ? [] : { message: "Please sign in to continue" }, status) });
    const client = testQueryClient();
    await client.fetchQuery(myVotesQuery());
    await waitFor(async () => expect(await offlineDb().cache.count()).toBe(1), { timeout: 5_000 });
    status = 401;
    await expect(client.fetchQuery({ ...myVotesQuery(), staleTime: 0 })).rejects.toMatchObject({ status: 401 });
  });
});

describe("casting through the outbox", () => {
  test("offline: 'Queued' on the card and in the status card; back online: delivered, 'Vote Cast', one toast", async () => {
    let up = false;
    const { card, posts } = await renderVotePage(() => up);
    await userEvent.click(within(card).getByRole("radio", { name: "Amaka Nwosu" }));
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByRole("button", { name: "Queued" }, { timeout: 5_000 })).toBeDisabled();
    expect(within(card).getByText(/Saved on this device, will be sent when you are back online/)).toBeInTheDocument();
    expect(within(card).getByRole("radio", { name: "Amaka Nwosu" })).toBeChecked();
    expect(screen.getByTestId("voting-queued-count")).toHaveTextContent("1 vote is queued on this device");
    expect(await offlineDb().outbox.count()).toBe(1);
    expect(screen.queryByText("Vote cast successfully!")).not.toBeInTheDocument();

    up = true;
    await act(async () => {
      window.dispatchEvent(new Event("online"));
    });
    expect(await within(card).findByRole("button", { name: "Vote Cast" }, { timeout: 5_000 })).toBeDisabled();
    expect(await screen.findByText("Vote cast successfully!")).toBeInTheDocument();
    // The queued vote's receipt shows once it is delivered.
    expect(await within(card).findByTestId("receipt")).toHaveTextContent("Your receipt: 7K2M9Q4XTB");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[0]!.body).toEqual({ positionId: "p1", candidateId: "c1", ballotTicket: "ticket-p1" });
    expect(await offlineDb().outbox.count()).toBe(0);
    await waitFor(() => expect(screen.getAllByText("Vote cast successfully!")).toHaveLength(1));
  });

  test("online: delivered at once, with exactly one success toast", async () => {
    const { card } = await renderVotePage(() => true);
    await userEvent.click(within(card).getByRole("radio", { name: "Tunde Bakare" }));
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByRole("button", { name: "Vote Cast" }, { timeout: 5_000 })).toBeDisabled();
    expect(await screen.findByText("Vote cast successfully!")).toBeInTheDocument();
    // Every outcome told and marked seen: nothing is left to replay as a second toast.
    await waitFor(async () => expect((await offlineDb().outcomes.toArray()).map((o) => o.seenAt !== null)).toEqual([true]), { timeout: 5_000 });
    await act(async () => undefined);
    expect(screen.getAllByText("Vote cast successfully!")).toHaveLength(1);
  });
});

describe("screens that need the network", () => {
  test("Create Users says so and disables its button offline", async () => {
    const onLine = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    renderRoute(CreateUserPage, "/admin/users");
    expect(await screen.findByText("This needs a connection. You are offline.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Create User" })).toBeDisabled();
    onLine.mockReturnValue(true);
    await act(async () => {
      window.dispatchEvent(new Event("online"));
    });
    await waitFor(() => expect(screen.queryByText("This needs a connection. You are offline.")).not.toBeInTheDocument());
    expect(screen.getByRole("button", { name: "Create User" })).toBeEnabled();
  });
});
