/** Create/Edit Position's 'Voting Method': the baseline's request (docs/product.md) when left alone, each method's fields, the freeze message. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test } from "vitest";
import { messages, type Position, type UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderRoute } from "../../test/render";
import { session } from "../../auth/session";
import { CreatePositionPage } from "./CreatePositionPage";
import { ManagePositionsPage } from "./ManagePositionsPage";
import { CreateCandidatePage } from "./CreateCandidatePage";

const admin: UserProfile = { _id: "a1", name: "Admin", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true };
afterEach(() => session.clear());

const H = 3_600_000;
const local = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

function createPage() {
  session.signIn("token-123456789012345678901", admin);
  const posts: Record<string, unknown>[] = [];
  mockFetch({
    "POST /api/admin/positions": ({ body }) => {
      posts.push(JSON.parse(String(body)));
      return json({ _id: "p9", message: messages.createPositionSuccess }, 201);
    },
  });
  renderRoute(CreatePositionPage, "/admin/positions");
  return { posts, u: userEvent.setup() };
}

async function fillWindow(u: ReturnType<typeof userEvent.setup>, title: string) {
  const start = Date.now() + H;
  await u.type(await screen.findByLabelText("Position Title", {}, { timeout: 8000 }), title);
  await u.type(screen.getByLabelText("Start Time"), local(start));
  await u.type(screen.getByLabelText("End Time"), local(start + 2 * H));
}

describe("Create Position's Voting Method", () => {
  test("left at Single choice, the request is the baseline's: title and window only", async () => {
    const { posts, u } = createPage();
    await fillWindow(u, "President");
    const method = screen.getByLabelText("Voting Method");
    expect(method).toHaveValue("single");
    expect(within(method).getByRole("option", { selected: true })).toHaveTextContent("Single choice (default)");
    expect(screen.queryByLabelText("Seats")).not.toBeInTheDocument();
    await u.click(screen.getByRole("button", { name: "Create Position" }));
    expect(await screen.findByText(messages.createPositionSuccess)).toBeInTheDocument();
    expect(posts).toHaveLength(1);
    expect(Object.keys(posts[0]).sort()).toEqual(["endTime", "startTime", "title"]);
  });

  test("Allow Abstain, when ticked, is sent with the new position and cleared with the form", async () => {
    const { posts, u } = createPage();
    await fillWindow(u, "Treasurer");
    const abstain = screen.getByRole("checkbox", { name: "Allow Abstain" });
    expect(abstain).not.toBeChecked();
    await u.click(abstain);
    await u.click(screen.getByRole("button", { name: "Create Position" }));
    expect(await screen.findByText(messages.createPositionSuccess)).toBeInTheDocument();
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ title: "Treasurer", allowAbstain: true });
    await waitFor(() => expect(screen.getByRole("checkbox", { name: "Allow Abstain" })).not.toBeChecked());
  });

  test("ranked takes seats and the live count; a referendum needs its question and takes a threshold", async () => {
    const { posts, u } = createPage();
    await fillWindow(u, "Class Reps");
    await u.selectOptions(screen.getByLabelText("Voting Method"), "Ranked choice");
    const seats = screen.getByLabelText("Seats");
    await u.clear(seats);
    await u.type(seats, "3");
    await u.click(screen.getByLabelText(/Show the full count live/));
    await u.click(screen.getByRole("button", { name: "Create Position" }));
    expect(await screen.findByText(messages.createPositionSuccess)).toBeInTheDocument();
    expect(posts[0]).toMatchObject({ title: "Class Reps", method: "ranked", seats: 3, liveCount: true });

    await fillWindow(u, "Amendment");
    await u.selectOptions(screen.getByLabelText("Voting Method"), "Referendum");
    expect(screen.queryByLabelText("Seats")).not.toBeInTheDocument();
    await u.click(screen.getByRole("button", { name: "Create Position" }));
    // The shared rule, under its field, and nothing sent.
    expect(await screen.findByText(messages.questionRequired)).toBeInTheDocument();
    expect(screen.getByLabelText("Question")).toHaveAttribute("aria-invalid", "true");
    expect(posts).toHaveLength(1);
    await u.type(screen.getByLabelText("Question"), "Amend article 4?");
    await u.selectOptions(screen.getByLabelText("Passes With"), "More than two thirds Yes");
    await u.click(screen.getByRole("button", { name: "Create Position" }));
    await screen.findAllByText(messages.createPositionSuccess);
    await expect.poll(() => posts.length).toBe(2);
    expect(posts[1]).toMatchObject({ method: "referendum", question: "Amend article 4?", passThreshold: 2 / 3 });
    expect(posts[1]).not.toHaveProperty("seats");
  });

  test("multi refuses seats that are not a whole number without a request", async () => {
    const { posts, u } = createPage();
    await fillWindow(u, "Reps");
    await u.selectOptions(screen.getByLabelText("Voting Method"), "Multiple seats");
    await u.clear(screen.getByLabelText("Seats"));
    await u.click(screen.getByRole("button", { name: "Create Position" }));
    expect(await screen.findByText("Seats must be a whole number")).toBeInTheDocument();
    expect(posts).toHaveLength(0);
  });
});

const position = (over: Partial<Position>): Position => ({
  _id: "p1",
  title: "Class Reps",
  startTime: new Date(Date.now() - H).toISOString(),
  endTime: new Date(Date.now() + H).toISOString(),
  candidates: [],
  eligibleGroups: [],
  allowAbstain: false,
  method: "multi",
  seats: 3,
  question: null,
  passThreshold: 0.5,
  ...over,
});

describe("Manage Positions with methods", () => {
  test("lists each method, and an edit of a voted position shows the API's freeze message", async () => {
    session.signIn("token-123456789012345678901", admin);
    const patches: unknown[] = [];
    mockFetch({
      "GET /api/admin/positions": () =>
        json([position({}), position({ _id: "p2", title: "Amendment", method: "referendum", seats: 1, question: "Amend?" }), position({ _id: "p3", title: "President", method: "single", seats: 1 })]),
      "PATCH /api/admin/positions/p1": ({ body }) => {
        patches.push(JSON.parse(String(body)));
        return json({ message: messages.methodFrozen }, 409);
      },
    });
    renderRoute(ManagePositionsPage, "/admin/manage-positions");
    const u = userEvent.setup();
    const row = (await screen.findByText("Class Reps", {}, { timeout: 8000 })).closest("tr")!;
    expect(within(row).getByText("Multiple seats (3 seats)")).toBeInTheDocument();
    expect(within(screen.getByText("Amendment").closest("tr")!).getByText("Referendum")).toBeInTheDocument();
    expect(within(screen.getByText("President").closest("tr")!).getByText("Single choice")).toBeInTheDocument();

    await u.click(screen.getByRole("button", { name: "Edit Class Reps" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Position" });
    expect(within(dialog).getByLabelText("Voting Method")).toHaveValue("multi");
    const seats = within(dialog).getByLabelText("Seats");
    expect(seats).toHaveValue(3);
    await u.clear(seats);
    await u.type(seats, "2");
    await u.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText(messages.methodFrozen)).toBeInTheDocument();
    expect(patches[0]).toMatchObject({ method: "multi", seats: 2 });
  });

  test("a referendum is not offered on Create Candidates", async () => {
    session.signIn("token-123456789012345678901", admin);
    mockFetch({
      "GET /api/admin/positions": () => json([position({}), position({ _id: "p2", title: "Amendment", method: "referendum", seats: 1, question: "Amend?" })]),
    });
    renderRoute(CreateCandidatePage, "/admin/candidates");
    const select = await screen.findByLabelText("Position", {}, { timeout: 8000 });
    await within(select).findByRole("option", { name: "Class Reps" });
    expect(within(select).queryByRole("option", { name: "Amendment" })).not.toBeInTheDocument();
  });
});
