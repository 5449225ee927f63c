/** Nominations' screens: the window in Election Settings, the voter's home prompts, applying, and the committee's screening. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test } from "vitest";
import { SPEC_ELECTION, messages, nominationMessages as m, type MyNominations, type Nomination, type Position, type UserProfile } from "@evoting/shared";
import { deferred, json, mockFetch } from "../test/fetch-mock";
import { renderRoute } from "../test/render";
import { session } from "../auth/session";
import { isoToLocalInput, localInputToIso } from "../lib/format";
import { nominationsSearch } from "../data/list-search";
import { ElectionSettingsPage } from "./admin/ElectionSettingsPage";
import { AdminNominationsPage } from "./admin/AdminNominationsPage";
import { NominationsPage } from "./NominationsPage";
import { NominationsHomeCard } from "../components/nominations/NominationsHomeCard";

const admin: UserProfile = { _id: "a1", name: "Admin", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true };
const observer: UserProfile = { ...admin, _id: "o1", name: "Watcher", role: "observer" };
const voter: UserProfile = { _id: "v1", name: "Ada Obi", role: "voter", matricNumber: "2020/5570001", email: null, hasPassword: false };
afterEach(() => session.clear());

const H = 3_600_000;
const TOKEN = "token-123456789012345678901";
const openWindow = { start: new Date(Date.now() - H).toISOString(), end: new Date(Date.now() + H).toISOString(), open: true };

const nomination = (over: Partial<Nomination> = {}): Nomination => ({
  _id: "n1",
  positionId: "p1",
  positionTitle: "President",
  applicant: { name: "Ada Obi", matricNumber: "2020/5570001" },
  manifesto: "Better labs",
  photo: null,
  proposer: null,
  seconder: null,
  state: "submitted",
  reason: null,
  candidateId: null,
  submittedAt: new Date().toISOString(),
  decidedAt: null,
  ...over,
});

describe("Election Settings: the nomination window", () => {
  test("saved as UTC instants; both blank is no window; one alone is refused before any request", async () => {
    session.signIn(TOKEN, admin);
    const puts: Record<string, unknown>[] = [];
    mockFetch({
      "GET /api/election": () => json({ ...SPEC_ELECTION, startTime: "2026-03-06T09:00:00.000Z", endTime: "2026-03-06T17:00:00.000Z" }),
      "PUT /api/admin/election": ({ body }) => {
        const sent = JSON.parse(String(body)) as Record<string, unknown>;
        puts.push(sent);
        return json({ ...SPEC_ELECTION, ...sent });
      },
    });
    renderRoute(ElectionSettingsPage, "/admin/election");
    const u = userEvent.setup();
    const opens = await screen.findByLabelText("Nominations Open", {}, { timeout: 8000 });
    expect(opens).toHaveValue("");
    await u.type(opens, "2026-03-01T09:00");
    await u.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText(m.nominationWindowBoth)).toBeInTheDocument();
    expect(puts).toHaveLength(0);

    // Nominations close no later than voting starts (the API refuses it the same way).
    await u.type(screen.getByLabelText("Nominations Close"), "2026-03-07T17:00");
    await u.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText(m.nominationWindowAfterVoting)).toBeInTheDocument();
    expect(puts).toHaveLength(0);

    await u.clear(screen.getByLabelText("Nominations Close"));
    await u.type(screen.getByLabelText("Nominations Close"), "2026-03-05T17:00");
    await u.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText(messages.electionSettingsSaved)).toBeInTheDocument();
    expect(puts[0]).toMatchObject({ nominationsStart: localInputToIso("2026-03-01T09:00"), nominationsEnd: localInputToIso("2026-03-05T17:00") });
    expect(screen.getByLabelText("Nominations Close")).toHaveValue(isoToLocalInput(localInputToIso("2026-03-05T17:00")));
  });
});

describe("the voter's home", () => {
  test("shows 'Apply to stand' while open, and a 'Confirm nomination' prompt that confirms", async () => {
    session.signIn(TOKEN, voter);
    let data: MyNominations = {
      window: openWindow,
      positions: [{ _id: "p1", title: "President" }],
      mine: [],
      requests: [{ _id: "n9", role: "proposer", applicant: { name: "Bola Ade", matricNumber: "2020/5570002" }, positionTitle: "President" }],
    };
    const answers: string[] = [];
    mockFetch({
      "GET /api/nominations": () => json(data),
      "POST /api/nominations/n9/confirm": () => {
        answers.push("confirm");
        data = { ...data, requests: [] };
        return json({ ...nomination({ _id: "n9" }), message: m.confirmSuccess });
      },
    });
    renderRoute(() => <NominationsHomeCard />, "/");
    const u = userEvent.setup();
    expect(await screen.findByRole("link", { name: "Apply to stand" }, { timeout: 8000 })).toHaveAttribute("href", "/nominations");
    const prompt = screen.getByRole("region", { name: "Confirm nomination" });
    expect(prompt).toHaveTextContent("Bola Ade (2020/5570002) named you as proposer of their application for President.");
    await u.click(within(prompt).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText(m.confirmSuccess)).toBeInTheDocument();
    expect(answers).toEqual(["confirm"]);
    await waitFor(() => expect(screen.queryByRole("region", { name: "Confirm nomination" })).not.toBeInTheDocument());
  });

  test("no 'Apply to stand' once voting has started, even if an answer still says open", async () => {
    session.signIn(TOKEN, voter);
    const fetch = mockFetch({
      "GET /api/nominations": () => json({ window: openWindow, positions: [{ _id: "p1", title: "President" }], mine: [], requests: [] }),
      "GET /api/election": () => json({ ...SPEC_ELECTION, startTime: new Date(Date.now() - 60_000).toISOString(), endTime: new Date(Date.now() + H).toISOString() }),
    });
    renderRoute(() => <NominationsHomeCard />, "/");
    await waitFor(() => expect(fetch.mock.calls.map((c) => String(c[0]))).toEqual(expect.arrayContaining([expect.stringContaining("/api/election")])));
    await waitFor(() => expect(screen.queryByRole("link", { name: "Apply to stand" })).not.toBeInTheDocument());
    expect(screen.queryByText(/Nominations are open/)).not.toBeInTheDocument();
  });

    test("shows nothing when nominations are closed and there is nothing to answer", async () => {
    session.signIn(TOKEN, voter);
    const fetch = mockFetch({ "GET /api/nominations": () => json({ window: { start: null, end: null, open: false }, positions: [], mine: [], requests: [] }) });
    renderRoute(() => <NominationsHomeCard />, "/");
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.queryByText("Nominations")).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Apply to stand" })).not.toBeInTheDocument();
  });
});

describe("Apply to stand", () => {
  test("checks the form, sends the application with its photo, and lists it; a rejection shows its reason", async () => {
    session.signIn(TOKEN, voter);
    let data: MyNominations = { window: openWindow, positions: [{ _id: "p1", title: "President" }], mine: [nomination({ _id: "n0", positionTitle: "Treasurer", state: "rejected", reason: "Outstanding dues" })], requests: [] };
    const sent: FormData[] = [];
    mockFetch({
      "GET /api/nominations": () => json(data),
      "POST /api/nominations": ({ body }) => {
        sent.push(body as FormData);
        const created = nomination({ state: "awaiting", proposer: { name: "Bola Ade", matricNumber: "2020/5570002", answer: "pending" } });
        data = { ...data, mine: [created, ...data.mine] };
        return json({ ...created, message: m.applySuccess }, 201);
      },
    });
    renderRoute(NominationsPage, "/nominations");
    const u = userEvent.setup();
    expect(await screen.findByText("Reason: Outstanding dues", {}, { timeout: 8000 })).toBeInTheDocument();
    await u.click(screen.getByRole("button", { name: "Submit Application" }));
    expect(await screen.findByText(m.nominationPositionRequired)).toBeInTheDocument();
    expect(screen.getByText(m.nominationManifestoRequired)).toBeInTheDocument();
    expect(screen.getByText(m.nominationPhotoRequired)).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    await u.selectOptions(screen.getByLabelText("Position"), "President");
    await u.upload(screen.getByLabelText("Your Photo"), new File([new Uint8Array([137, 80, 78, 71])], "me.png", { type: "image/png" }));
    await u.type(screen.getByLabelText("Manifesto"), "Better labs");
    await u.type(screen.getByLabelText("Proposer (matric number)"), "2020/5570002");
    await u.click(screen.getByRole("button", { name: "Submit Application" }));
    expect(await screen.findByText(m.applySuccess)).toBeInTheDocument();
    expect(sent[0].get("positionId")).toBe("p1");
    expect(sent[0].get("manifesto")).toBe("Better labs");
    expect(sent[0].get("proposer")).toBe("2020/5570002");
    expect(sent[0].get("seconder")).toBeNull();
    expect(sent[0].get("photo")).toBeInstanceOf(File);
    expect(await screen.findByText("Awaiting proposer")).toBeInTheDocument();
  });

  test("withdraws after a confirm dialog; a closed window says so", async () => {
    session.signIn(TOKEN, voter);
    let data: MyNominations = { window: { start: null, end: null, open: false }, positions: [], mine: [nomination({ state: "approved" })], requests: [] };
    mockFetch({
      "GET /api/nominations": () => json(data),
      "POST /api/nominations/n1/withdraw": () => {
        data = { ...data, mine: [nomination({ state: "withdrawn" })] };
        return json({ ...data.mine[0], message: m.withdrawSuccess });
      },
    });
    renderRoute(NominationsPage, "/nominations");
    const u = userEvent.setup();
    expect(await screen.findByText("Nominations are not open.", {}, { timeout: 8000 })).toBeInTheDocument();
    await u.click(screen.getByRole("button", { name: "Withdraw application for President" }));
    const dialog = await screen.findByRole("dialog", { name: "Withdraw Application" });
    expect(dialog).toHaveTextContent("You will be taken off the ballot.");
    await u.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect(await screen.findByText(m.withdrawSuccess)).toBeInTheDocument();
    expect(await screen.findByText("Withdrawn")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Withdraw application/ })).not.toBeInTheDocument();
  });
});

const positions: Position[] = [{ _id: "p1", title: "President", startTime: new Date().toISOString(), endTime: new Date(Date.now() + H).toISOString(), candidates: [] }];

describe("Nominations (the committee)", () => {
  test("loading, then each application with its state; filters go to the URL and the request", async () => {
    session.signIn(TOKEN, admin);
    const held = deferred<Response>();
    const urls: string[] = [];
    mockFetch({
      "GET /api/admin/positions": () => json(positions),
      "GET /api/admin/nominations": ({ url }) => {
        urls.push(url);
        if (urls.length === 1) return held.promise;
        return json(url.includes("state=rejected") ? [] : [nomination()]);
      },
    });
    const { router } = renderRoute(AdminNominationsPage, "/admin/nominations", { validateSearch: nominationsSearch });
    const u = userEvent.setup();
    expect(await screen.findByText("Loading nominations...", {}, { timeout: 8000 })).toBeInTheDocument();
    held.resolve(json([nomination({ proposer: { name: "Bola Ade", matricNumber: "2020/5570002", answer: "confirmed" } })]));
    expect(await screen.findByText("Proposer: Bola Ade (2020/5570002), confirmed")).toBeInTheDocument();
    expect(screen.getByText("Submitted", { selector: "span" })).toBeInTheDocument();
    await u.selectOptions(screen.getByLabelText("State"), "rejected");
    expect(await screen.findByText("No nominations match these filters.")).toBeInTheDocument();
    expect(router.state.location.search).toEqual({ state: "rejected" });
    expect(urls.at(-1)).toContain("state=rejected");
  });

  test("approve after a confirm dialog; reject needs a reason; both toast", async () => {
    session.signIn(TOKEN, admin);
    let list = [nomination(), nomination({ _id: "n2", applicant: { name: "Chidi Eze", matricNumber: "2020/5570003" } })];
    const calls: string[] = [];
    mockFetch({
      "GET /api/admin/positions": () => json(positions),
      "GET /api/admin/nominations": () => json(list),
      "POST /api/admin/nominations/n1/approve": () => {
        calls.push("approve n1");
        list = [nomination({ state: "approved" }), list[1]];
        return json({ ...list[0], message: m.approveSuccess });
      },
      "POST /api/admin/nominations/n2/reject": ({ body }) => {
        calls.push(`reject n2 ${String(body)}`);
        list = [list[0], { ...list[1], state: "rejected", reason: "Outstanding dues" }];
        return json({ ...list[1], message: m.rejectSuccess });
      },
    });
    renderRoute(AdminNominationsPage, "/admin/nominations", { validateSearch: nominationsSearch });
    const u = userEvent.setup();
    await u.click(await screen.findByRole("button", { name: "Approve Ada Obi" }, { timeout: 8000 }));
    const approve = await screen.findByRole("dialog", { name: "Approve Nomination" });
    await u.click(within(approve).getByRole("button", { name: "Approve" }));
    expect(await screen.findByText(m.approveSuccess)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("button", { name: "Approve Ada Obi" })).not.toBeInTheDocument());

    await u.click(screen.getByRole("button", { name: "Reject Chidi Eze" }));
    const reject = await screen.findByRole("dialog", { name: "Reject Nomination" });
    await u.click(within(reject).getByRole("button", { name: "Reject" }));
    expect(await within(reject).findByText(m.rejectReasonRequired)).toBeInTheDocument();
    await u.type(within(reject).getByLabelText("Reason"), "Outstanding dues");
    await u.click(within(reject).getByRole("button", { name: "Reject" }));
    expect(await screen.findByText(m.rejectSuccess)).toBeInTheDocument();
    expect(await screen.findByText("Reason: Outstanding dues")).toBeInTheDocument();
    expect(calls).toEqual(["approve n1", `reject n2 ${JSON.stringify({ reason: "Outstanding dues" })}`]);
  });

  test("observers read without actions; an empty list and a failure have their own states", async () => {
    session.signIn(TOKEN, observer);
    let fail = false;
    mockFetch({
      "GET /api/admin/positions": () => json(positions),
      "GET /api/admin/nominations": () => (fail ? json({ message: "down" }, 500) : json([nomination()])),
    });
    const first = renderRoute(AdminNominationsPage, "/admin/nominations", { validateSearch: nominationsSearch });
    expect(await screen.findByText("Ada Obi", {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Approve|Reject/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("columnheader", { name: "Actions" })).not.toBeInTheDocument();
    first.unmount();
    fail = true;
    renderRoute(AdminNominationsPage, "/admin/nominations", { validateSearch: nominationsSearch });
    expect(await screen.findByText(m.loadNominationsFailed, {}, { timeout: 8000 })).toBeInTheDocument();
  });
});
