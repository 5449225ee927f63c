/** Election admin screens: Election Settings, and 'Edit' on Manage Positions / Manage Candidates. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test } from "vitest";
import { SPEC_ELECTION, messages, type Candidate, type ElectionSettings, type Position, type UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderRoute } from "../../test/render";
import { session } from "../../auth/session";
import { isoToLocalInput } from "../../lib/format";
import { ElectionSettingsPage } from "./ElectionSettingsPage";
import { ManagePositionsPage } from "./ManagePositionsPage";
import { ManageCandidatesPage } from "./ManageCandidatesPage";
import { CreateCandidatePage } from "./CreateCandidatePage";

const admin: UserProfile = { _id: "a1", name: "Admin", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true };
afterEach(() => session.clear());

const H = 3_600_000;
const settings: ElectionSettings = SPEC_ELECTION;

/** Election Settings on a mocked server; answers the list of PUT bodies it receives. */
function openSettings() {
  session.signIn("token-123456789012345678901", admin);
  const puts: unknown[] = [];
  mockFetch({
    "GET /api/election": () => json(settings),
    "PUT /api/admin/election": ({ body }) => {
      puts.push(JSON.parse(String(body)));
      return json({ ...settings, ...(JSON.parse(String(body)) as object) });
    },
  });
  renderRoute(ElectionSettingsPage, "/admin/election");
  return puts;
}

describe("Election Settings", () => {
  test("loads the settings as local times and saves UTC instants with visibility and order", async () => {
    const puts = openSettings();
    const u = userEvent.setup();
    const title = await screen.findByLabelText("Election Title", {}, { timeout: 8000 });
    await waitFor(() => expect(title).toHaveValue("Department Elections"));
    expect(screen.getByLabelText("Start Time")).toHaveValue(isoToLocalInput(settings.startTime));
    await u.clear(title);
    await u.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText(messages.electionTitleRequired)).toBeInTheDocument();
    expect(puts).toHaveLength(0);

    await u.type(title, "SUG Elections");
    await u.selectOptions(screen.getByLabelText("Results Visibility"), "after-close");
    await u.selectOptions(screen.getByLabelText("Ballot Order"), "random");
    // Unopposed positions: the baseline's ordinary vote by default (docs/product.md); Yes or No is a choice.
    const unopposed = screen.getByLabelText("Unopposed Positions");
    expect(unopposed).toHaveValue("single");
    expect(within(unopposed).getByRole("option", { selected: true })).toHaveTextContent("Vote for the candidate (as usual)");
    await u.selectOptions(unopposed, "Yes or No");
    await u.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText(messages.electionSettingsSaved)).toBeInTheDocument();
    expect(puts).toEqual([{ ...settings, title: "SUG Elections", resultsVisibility: "after-close", ballotOrder: "random", unopposed: "yes-no" }]);
  });

  test("Ballot Batch: shows the stored batch with its help, refuses anything but a whole number from 1, saves it", async () => {
    const puts = openSettings();
    const u = userEvent.setup();
    const batch = await screen.findByLabelText("Ballot Batch", {}, { timeout: 8000 });
    expect(batch).toHaveValue(10);
    expect(batch).toHaveAccessibleDescription(/groups of this many per position, so no one can match a voter to a choice/);
    for (const bad of ["0", ""]) {
      await u.clear(batch);
      if (bad) await u.type(batch, bad);
      await u.click(screen.getByRole("button", { name: "Save Settings" }));
      expect(await screen.findByText(messages.ballotBatchInvalid)).toBeInTheDocument();
    }
    expect(puts).toHaveLength(0);
    await u.clear(batch);
    await u.type(batch, "1");
    await u.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText(messages.electionSettingsSaved)).toBeInTheDocument();
    expect(puts).toEqual([{ ...settings, ballotBatch: 1 }]);
  });
});

const open = (): Position => ({
  _id: "p1",
  title: "President",
  startTime: new Date(Date.now() - H).toISOString(),
  endTime: new Date(Date.now() + H).toISOString(),
  candidates: [],
  eligibleGroups: [],
  allowAbstain: false,
});

describe("Edit on Manage Positions", () => {
  test("on polling day: the start stays, the end moves later; before now is refused without a request", async () => {
    session.signIn("token-123456789012345678901", admin);
    const position = open();
    const patches: unknown[] = [];
    mockFetch({
      "GET /api/admin/positions": () => json([position]),
      "PATCH /api/admin/positions/p1": ({ body }) => {
        patches.push(JSON.parse(String(body)));
        return json({ ...position, message: messages.updatePositionSuccess });
      },
    });
    renderRoute(ManagePositionsPage, "/admin/manage-positions");
    const u = userEvent.setup();
    await u.click(await screen.findByRole("button", { name: "Edit President" }, { timeout: 8000 }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Position" });
    const end = within(dialog).getByLabelText("End Time");
    await u.clear(end);
    await u.type(end, isoToLocalInput(new Date(Date.now() - 30 * 60_000).toISOString()));
    await u.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await within(dialog).findByText(messages.endBeforeNow)).toBeInTheDocument();
    expect(patches).toHaveLength(0);

    const later = new Date(Date.now() + 3 * H);
    await u.clear(end);
    await u.type(end, isoToLocalInput(later.toISOString()));
    await u.type(within(dialog).getByLabelText("Eligible Groups"), "300L; Software");
    await u.click(within(dialog).getByLabelText("Allow Abstain"));
    await u.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText(messages.updatePositionSuccess)).toBeInTheDocument();
    const [sent] = patches as { startTime: string; endTime: string; eligibleGroups: string[]; allowAbstain: boolean }[];
    // The untouched start goes back exactly as stored, so the "start locked" rule never trips.
    expect(sent.startTime).toBe(position.startTime);
    expect(Math.abs(Date.parse(sent.endTime) - later.getTime())).toBeLessThan(60_000);
    expect(sent).toMatchObject({ title: "President", eligibleGroups: ["300L", "Software"], allowAbstain: true });
  });
});

describe("Edit on Manage Candidates", () => {
  test("name and manifesto go as multipart; a frozen ballot's refusal is shown", async () => {
    session.signIn("token-123456789012345678901", admin);
    const candidate: Candidate = { _id: "c1", name: "Ada", photo: null, position: { _id: "p1", title: "President" }, positionId: "p1", positionTitle: "President", manifesto: null };
    const forms: FormData[] = [];
    mockFetch({
      "GET /api/admin/candidates": () => json([candidate]),
      "PATCH /api/admin/candidates/c1": ({ body }) => {
        forms.push(body as FormData);
        return forms.length === 1 ? json({ ...candidate, message: messages.updateCandidateSuccess }) : json({ message: messages.ballotFrozen }, 409);
      },
    });
    renderRoute(ManageCandidatesPage, "/admin/manage-candidates");
    const u = userEvent.setup();
    await u.click(await screen.findByRole("button", { name: "Edit Ada" }, { timeout: 8000 }));
    let dialog = await screen.findByRole("dialog", { name: "Edit Candidate" });
    await u.type(within(dialog).getByLabelText("Manifesto"), "More labs.");
    await u.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText(messages.updateCandidateSuccess)).toBeInTheDocument();
    expect(forms[0].get("name")).toBe("Ada");
    expect(forms[0].get("manifesto")).toBe("More labs.");

    await u.click(await screen.findByRole("button", { name: "Edit Ada" }, { timeout: 8000 }));
    dialog = await screen.findByRole("dialog", { name: "Edit Candidate" });
    await u.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText(messages.ballotFrozen)).toBeInTheDocument();
  });
});

describe("Create Candidates", () => {
  test("takes an optional manifesto, sent with the candidate", async () => {
    session.signIn("token-123456789012345678901", admin);
    const forms: FormData[] = [];
    mockFetch({
      "GET /api/admin/positions": () => json([open()]),
      "POST /api/admin/candidates": ({ body }) => {
        forms.push(body as FormData);
        return json({ _id: "c1", name: "Ada", message: messages.createCandidateSuccess }, 201);
      },
    });
    renderRoute(CreateCandidatePage, "/admin/candidates");
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText("Candidate Name"), "Ada");
    await screen.findByRole("option", { name: "President" }, { timeout: 8000 });
    await u.selectOptions(screen.getByLabelText("Position"), "p1");
    await u.type(screen.getByLabelText("Manifesto"), "Open labs at night.");
    await u.click(screen.getByRole("button", { name: "Create Candidate" }));
    expect(await screen.findByText(messages.createCandidateSuccess)).toBeInTheDocument();
    expect(forms[0].get("manifesto")).toBe("Open labs at night.");
    expect(screen.getByLabelText("Manifesto")).toHaveValue("");
  });
});
