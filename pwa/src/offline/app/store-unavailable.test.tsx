/**
 * The vote path when the device store does not answer (a blocked upgrade here; WebKit's
 * back/forward-cache trap in the field): online, the vote goes straight to the server with
 * its idempotency key and the voter sees it counted; offline, the voter is told plainly.
 * A file of its own: it leaves this test's global IndexedDB blocked, then upgraded.
 */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import type { BallotPosition, MyVote, UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderWithQuery, testQueryClient } from "../../test/render";
import { AppToaster } from "../../components/AppToaster";
import { VotePage } from "../../screens/VotePage";
import { session } from "../../auth/session";
import { evotingDb } from "../db";
import { offlineText } from "../notices";
import { castVote } from "../../data/cast-vote";

const hour = 3_600_000;
const voter: UserProfile = { _id: "u1", name: "Ada", role: "voter", matricNumber: "2021/5570101", email: null, hasPassword: false };
const president: BallotPosition = {
  _id: "p1",
  title: "President",
  startTime: new Date(Date.now() - hour).toISOString(),
  endTime: new Date(Date.now() + hour).toISOString(),
  ballotTicket: "ticket-p1",
  candidates: [{ _id: "c1", name: "Amaka Nwosu", photo: null, position: { _id: "p1", title: "President" }, positionId: "p1", positionTitle: "President" }],
};

const open = (version: number) =>
  new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open("evoting", version);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });

let stubborn: IDBDatabase;
let upgrade: Promise<IDBDatabase>;
beforeAll(async () => {
  const seed = evotingDb();
  await seed.open();
  seed.close();
  // A tab on this release holds the database open and ignores the request to upgrade from a
  // newer one: every later open of the database waits behind that upgrade.
  stubborn = await open(10);
  upgrade = open(20);
});
afterAll(async () => {
  stubborn.close();
  (await upgrade).close();
});
beforeEach(() => session.signIn("tok-1", voter));

describe("the device store does not answer", () => {
  test("online: the vote goes straight to the server, with one idempotency key, and the card shows it cast", async () => {
    const posts: { key: string; body: unknown }[] = [];
    const votes: MyVote[] = [];
    mockFetch({
      "GET /api/vote/positions": () => json([president]),
      "GET /api/vote/my-votes": () => json(votes),
      "GET /api/vote/results": () => json({ totalRegisteredVoters: 1, totalVotesCast: votes.length, results: [], generatedAt: "" }),
      "POST /api/vote": (init) => {
        posts.push({ key: (init.headers as Record<string, string>)["Idempotency-Key"]!, body: JSON.parse(init.body as string) });
        const vote = { positionId: "p1", candidateId: "c1", candidateName: "Amaka Nwosu", receipt: "7K2M9Q4XTB" };
        votes.push(vote);
        return json({ message: "Vote cast successfully!", vote, receipt: vote.receipt }, 201);
      },
    });
    renderWithQuery(
      <>
        <VotePage />
        <AppToaster />
      </>,
      testQueryClient(),
    );
    const card = await screen.findByRole("form", { name: "President" });
    await userEvent.click(within(card).getByRole("radio", { name: "Amaka Nwosu" }));
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByRole("button", { name: "Vote Cast" }, { timeout: 10_000 })).toBeDisabled();
    expect(await screen.findByText("Vote cast successfully!")).toBeInTheDocument();
    expect(posts).toHaveLength(1);
    expect(posts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[0]!.body).toEqual({ positionId: "p1", candidateId: "c1", ballotTicket: "ticket-p1" });
  });

  test("offline: a clear message, and nothing is sent", async () => {
    const onLine = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const post = vi.fn();
    mockFetch({ "POST /api/vote": post });
    await expect(castVote({ positionId: "p1", candidateId: "c1", candidateName: "Amaka Nwosu" }, 200)).rejects.toMatchObject({
      message: offlineText.storeUnavailable,
    });
    expect(post).not.toHaveBeenCalled();
    onLine.mockRestore();
  });
});
