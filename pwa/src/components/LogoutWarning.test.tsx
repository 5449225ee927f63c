import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { messages, type UserProfile } from "@evoting/shared";
import { offlineDb, queueVote } from "../offline";
import { sweepSignedOutUsers, watchSessionEnd } from "../data/device-data";
import { resetOffline } from "../offline/app/runtime";
import { session } from "../auth/session";
import { mockFetch } from "../test/fetch-mock";
import { renderRoute } from "../test/render";
import { LogoutScreen } from "../test/logout-screen";

const user: UserProfile = { _id: "u1", name: "Chidi", role: "voter", matricNumber: "2021/5570101", email: null, hasPassword: false };
const other: UserProfile = { ...user, _id: "u2", name: "Ngozi" };

const rowsOf = async (userId: string) => {
  const db = offlineDb();
  const counts = await Promise.all([db.cache, db.marks, db.outcomes, db.outbox].map((t) => t.where("userId").equals(userId).count()));
  return { cache: counts[0], marks: counts[1], outcomes: counts[2], outbox: counts[3] };
};

async function seedDevice() {
  const db = offlineDb();
  await db.cache.put({ userId: "u1", key: "myVotes", data: [{ positionId: "p0", candidateId: "c0", candidateName: "Grace" }], savedAt: 1 });
  await db.cache.put({ userId: "u2", key: "myVotes", data: [], savedAt: 1 });
  localStorage.setItem("chat:lastRead:u1", "7");
}

beforeEach(async () => {
  // The sync engine may try to send the queued vote: nobody answers, it stays queued.
  mockFetch({ "POST /api/auth/logout": () => new Response(null, { status: 204 }) });
  await Promise.all([offlineDb().cache.clear(), offlineDb().marks.clear(), offlineDb().outcomes.clear(), offlineDb().outbox.clear()]);
});
afterEach(async () => {
  await resetOffline();
});

describe("Logout on a shared computer", () => {
  test("with votes queued it warns first; 'Stay signed in' keeps everything", async () => {
    session.signIn("tok", user);
    await seedDevice();
    await queueVote({ userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada", ballotTicket: "t" });
    renderRoute(LogoutScreen, "/");
    const click = userEvent.setup();
    await click.click(await screen.findByRole("button", { name: "Logout" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent(messages.logoutQueuedVotes(1));
    expect(dialog).toHaveTextContent(/You have 1 vote waiting to be sent/);
    expect(screen.getByRole("button", { name: messages.logoutStay })).toHaveFocus();
    await click.click(screen.getByRole("button", { name: messages.logoutStay }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(session.user()?._id).toBe("u1");
    expect(await rowsOf("u1")).toMatchObject({ cache: 1, outbox: 1 });
  });

  test("'Log out anyway' wipes everything of the user from the device, and only theirs", async () => {
    session.signIn("tok", user);
    await seedDevice();
    await queueVote({ userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada", ballotTicket: "t" });
    await queueVote({ userId: "u1", positionId: "p2", candidateId: "c2", candidateName: "Bola" });
    const { router } = renderRoute(LogoutScreen, "/");
    const click = userEvent.setup();
    await click.click(await screen.findByRole("button", { name: "Logout" }));
    expect(await screen.findByRole("alertdialog")).toHaveTextContent(/You have 2 votes waiting to be sent/);
    await click.click(screen.getByRole("button", { name: messages.logoutAnyway }));
    expect(session.get()).toBeNull();
    await waitFor(async () => expect(await rowsOf("u1")).toEqual({ cache: 0, marks: 0, outcomes: 0, outbox: 0 }));
    expect(await rowsOf("u2")).toMatchObject({ cache: 1 });
    expect(localStorage.getItem("chat:lastRead:u1")).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });

  test("with nothing queued it signs out at once and still wipes the user's data", async () => {
    session.signIn("tok", user);
    await seedDevice();
    renderRoute(LogoutScreen, "/");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Logout" }));
    await waitFor(() => expect(session.get()).toBeNull());
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    await waitFor(async () => expect((await rowsOf("u1")).cache).toBe(0));
  });
});

describe("a session that ends without Logout (401, another tab)", () => {
  test("keeps only the outbox of that user", async () => {
    session.signIn("tok", user);
    await seedDevice();
    await offlineDb().outcomes.put({ userId: "u1", positionId: "p0", candidateId: "c0", candidateName: "Grace", key: "k0", status: "delivered", httpStatus: 201, message: "ok", recordedVote: null, attempts: 1, queuedAt: 1, settledAt: 2, seenAt: null });
    await queueVote({ userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada" });
    const stop = watchSessionEnd();
    try {
      session.clear(); // what the API client does on a 401
      await waitFor(async () => expect(await rowsOf("u1")).toMatchObject({ cache: 0, outcomes: 0, outbox: 1 }));
      expect(localStorage.getItem("chat:lastRead:u1")).toBeNull();
      // Another voter signing in next does not change that.
      session.signIn("tok2", other);
      expect((await rowsOf("u1")).outbox).toBe(1);
    } finally {
      stop();
    }
  });

  test("a page closed before it finished clearing is swept at the next start: others keep only their outbox", async () => {
    await seedDevice();
    await queueVote({ userId: "u1", positionId: "p1", candidateId: "c1", candidateName: "Ada" });
    session.signIn("tok2", other);
    await sweepSignedOutUsers();
    expect(await rowsOf("u1")).toMatchObject({ cache: 0, outcomes: 0, outbox: 1 });
    expect(await rowsOf("u2")).toMatchObject({ cache: 1 });
  });
});
