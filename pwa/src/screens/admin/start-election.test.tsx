/** Start a new election: which of the last election's positions are copied (every one, or a by-election's few). */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test } from "vitest";
import { messages, type CurrentElectionStatus, type Position, type UserProfile } from "@evoting/shared";
import { deferred, json, mockFetch } from "../../test/fetch-mock";
import { renderRoute } from "../../test/render";
import { session } from "../../auth/session";
import { isoToLocalInput } from "../../lib/format";
import { StartElectionPage } from "./StartElectionPage";
import { accountabilityKeys } from "../../data/accountability";

const admin: UserProfile = { _id: "a1", name: "Admin", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true };
afterEach(() => session.clear());

const status: CurrentElectionStatus = {
  election: { id: 1, title: "Union Elections 2026", subtitle: "", startTime: "2026-03-01T08:00:00.000Z", endTime: "2026-03-01T16:00:00.000Z", state: "declared", declaredAt: "2026-03-01T17:00:00.000Z" },
  declarableAt: "2026-03-01T16:10:00.000Z",
  hasVotes: true,
};
const position = (id: string, title: string, extra: Partial<Position> = {}): Position => ({
  _id: id,
  title,
  startTime: status.election.startTime,
  endTime: status.election.endTime,
  candidates: [],
  eligibleGroups: [],
  allowAbstain: false,
  ...extra,
});
const last = [position("p1", "President"), position("p2", "Treasurer", { method: "ranked", seats: 2 }), position("p3", "Welfare Secretary")];

/** The page on a mocked server; answers the bodies of the POSTs it receives. */
function openPage(positions: () => Response | Promise<Response> = () => json(last)) {
  session.signIn("token-123456789012345678901", admin);
  const posts: Record<string, unknown>[] = [];
  mockFetch({
    "GET /api/admin/elections/current": () => json(status),
    "GET /api/admin/positions": positions,
    "POST /api/admin/elections": ({ body }) => {
      posts.push(JSON.parse(String(body)) as Record<string, unknown>);
      return json({ message: messages.startElectionSuccess, election: { ...status.election, id: 2, state: "open" } }, 201);
    },
  });
  renderRoute(StartElectionPage, "/admin/elections/new");
  return posts;
}

async function fillIdentity(u: ReturnType<typeof userEvent.setup>) {
  await u.type(await screen.findByLabelText("Election Title", {}, { timeout: 8000 }), "President By-Election");
  await u.type(screen.getByLabelText("Start Time"), isoToLocalInput("2026-04-01T08:00:00.000Z"));
  await u.type(screen.getByLabelText("End Time"), isoToLocalInput("2026-04-01T16:00:00.000Z"));
}

const start = async (u: ReturnType<typeof userEvent.setup>) => {
  await u.click(screen.getByRole("button", { name: "Start Election" }));
  return screen.findByRole("dialog", { name: "Start a new election?" });
};

describe("Start a new election: positions to copy", () => {
  test("every position is ticked and copied by default: the request is the old one, without positionIds", async () => {
    const posts = openPage();
    const u = userEvent.setup();
    await fillIdentity(u);
    const group = await screen.findByRole("group", { name: "Positions to copy" });
    for (const title of ["President", "Treasurer", "Welfare Secretary"]) expect(within(group).getByRole("checkbox", { name: title })).toBeChecked();
    expect(within(group).getByRole("checkbox", { name: "Treasurer" })).toHaveAccessibleDescription("Ranked choice (2 seats)");
    expect(group).toHaveAccessibleDescription("3 of 3 selected");
    const dialog = await start(u);
    expect(within(dialog).queryByText(/^Positions copied/)).not.toBeInTheDocument();
    await u.click(within(dialog).getByRole("button", { name: "Start Election" }));
    expect(await screen.findByText(messages.startElectionSuccess)).toBeInTheDocument();
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ title: "President By-Election", copyPositions: true, keepRoll: true });
    expect(posts[0]).not.toHaveProperty("positionIds");
  });

  test("a by-election: Clear, then tick one position by keyboard; only its id is sent and the confirm dialog names it", async () => {
    const posts = openPage();
    const u = userEvent.setup();
    await fillIdentity(u);
    const group = await screen.findByRole("group", { name: "Positions to copy" });
    await u.click(within(group).getByRole("checkbox", { name: "Treasurer" }));
    expect(group).toHaveAccessibleDescription("2 of 3 selected");
    await u.click(within(group).getByRole("button", { name: "Select all" }));
    expect(group).toHaveAccessibleDescription("3 of 3 selected");
    await u.click(within(group).getByRole("button", { name: "Clear" }));
    expect(within(group).getAllByRole("checkbox").filter((c) => (c as HTMLInputElement).checked)).toHaveLength(0);
    expect(group).toHaveAccessibleDescription("0 of 3 selected");

    // Nothing chosen: the shared rule refuses it before any request.
    await u.click(screen.getByRole("button", { name: "Start Election" }));
    expect(await within(group).findByText(messages.copyPositionsNone)).toBeInTheDocument();
    expect(group).toHaveAccessibleDescription(`0 of 3 selected ${messages.copyPositionsNone}`);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    within(group).getByRole("checkbox", { name: "President" }).focus();
    await u.keyboard(" ");
    expect(within(group).getByRole("checkbox", { name: "President" })).toBeChecked();
    expect(group).toHaveAccessibleDescription("1 of 3 selected");
    expect(within(group).queryByText(messages.copyPositionsNone)).not.toBeInTheDocument();
    const dialog = await start(u);
    expect(within(dialog).getByText("Positions copied: President.")).toBeInTheDocument();
    await u.click(within(dialog).getByRole("button", { name: "Start Election" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ copyPositions: true, positionIds: ["p1"] });
  });

  test("unticking 'Copy the positions' hides the list and sends no positions", async () => {
    const posts = openPage();
    const u = userEvent.setup();
    await fillIdentity(u);
    const group = await screen.findByRole("group", { name: "Positions to copy" });
    await u.click(within(group).getByRole("checkbox", { name: "Treasurer" }));
    await u.click(screen.getByRole("checkbox", { name: /^Copy the positions of Union Elections 2026/ }));
    expect(screen.queryByRole("group", { name: "Positions to copy" })).not.toBeInTheDocument();
    await u.click(within(await start(u)).getByRole("button", { name: "Start Election" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ copyPositions: false });
    expect(posts[0]).not.toHaveProperty("positionIds");
  });

  test("the last election's turnout is dropped once the new one starts: the Admin Panel's chart never draws its ballots", async () => {
    session.signIn("token-123456789012345678901", admin);
    mockFetch({
      "GET /api/admin/elections/current": () => json(status),
      "GET /api/admin/positions": () => json(last),
      "POST /api/admin/elections": () => json({ message: messages.startElectionSuccess, election: { ...status.election, id: 2, state: "open" } }, 201),
    });
    const { client } = renderRoute(StartElectionPage, "/admin/elections/new");
    client.setQueryData(accountabilityKeys.turnout, { hourly: [{ hour: status.election.startTime, ballots: 21 }], groups: [] });
    const u = userEvent.setup();
    await fillIdentity(u);
    await u.click(within(await start(u)).getByRole("button", { name: "Start Election" }));
    expect(await screen.findByText(messages.startElectionSuccess)).toBeInTheDocument();
    expect(client.getQueryData(accountabilityKeys.turnout)).toBeUndefined();
  });

  test("loading, then empty: the positions list's states", async () => {
    const held = deferred<Response>();
    openPage(() => held.promise);
    expect(await screen.findByText("Loading positions...", {}, { timeout: 8000 })).toBeInTheDocument();
    held.resolve(json([]));
    expect(await screen.findByText("Union Elections 2026 has no positions to copy.")).toBeInTheDocument();
  });

  test("when the list fails to load, the page says every position will be copied, and the request copies all", async () => {
    const posts = openPage(() => json({ message: "down" }, 500));
    const u = userEvent.setup();
    await fillIdentity(u);
    expect(await screen.findByText("Failed to load the positions of Union Elections 2026: all of them will be copied.")).toBeInTheDocument();
    await u.click(within(await start(u)).getByRole("button", { name: "Start Election" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ copyPositions: true });
    expect(posts[0]).not.toHaveProperty("positionIds");
  });
});
