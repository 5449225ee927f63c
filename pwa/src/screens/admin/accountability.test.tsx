/**
 * Accountability screens: the Audit Log (page, filters, paging, export), the printable results
 * sheet (outcomes, digests as the server gave them), Counted Ballots, receipts on the vote
 * card, and observers: read-only panel, nav, tables and guards.
 */
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test, vi } from "vitest";
import { SPEC_ELECTION, type AuditEntryView, type AuditPage, type BallotPosition, type ResultsSheet, type UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderRoute, renderWithQuery } from "../../test/render";
import { session } from "../../auth/session";
import { requireAdmin, requireVoter, homeFor } from "../../auth/guards";
import { navFor } from "../../components/layout/nav";
import { observerMayOpen } from "../../auth/guards";
import { ManageTable } from "../../components/admin/ManageTable";
import { VoteCard } from "../../components/vote/VoteCard";
import { AuditLogPage } from "./AuditLogPage";
import { auditSearch } from "../../data/list-search";
import { AdminPanelPage } from "./AdminPanelPage";
import { ResultsSheetPage } from "./ResultsSheetPage";
import { ReceiptsPage } from "../ReceiptsPage";
import { formatShortDateTime, formatTime, zoneOffsetName } from "../../lib/format";

const user = (role: UserProfile["role"]): UserProfile => ({
  _id: `${role}-1`,
  name: role === "observer" ? "Olu Observer" : "Ada Admin",
  role,
  matricNumber: "0000/5570001",
  email: null,
  hasPassword: true,
});

const entry = (seq: number, action = "position.create"): AuditEntryView => ({
  _id: `e${seq}`,
  seq,
  at: new Date(Date.UTC(2026, 2, 2, 9, 0, seq)).toISOString(),
  actor: { name: "Ada Admin", matricNumber: "0000/5570001" },
  action,
  target: `position:${seq}`,
  summary: `Entry ${seq}`,
  address: "10.0.0.1",
  hash: "a".repeat(64),
});

describe("Audit Log", () => {
  test("lists entries newest first, filters by action and actor, pages by 50, exports CSV", async () => {
    session.signIn("token-123456789012345678901", user("admin"));
    const asked: string[] = [];
    const fetch = mockFetch({
      "GET /api/admin/audit": ({ url }) => {
        const q = new URL(url, "http://localhost").searchParams;
        asked.push(q.toString());
        const page = Number(q.get("page") ?? 1);
        const all = Array.from({ length: 120 }, (_, i) => entry(120 - i, i % 3 ? "position.create" : "auth.login"));
        const filtered = all.filter((e) => !q.get("action") || e.action === q.get("action"));
        const body: AuditPage = { items: filtered.slice((page - 1) * 50, page * 50), total: filtered.length, page, pageSize: 50, actions: ["auth.login", "position.create"] };
        return json(body);
      },
      "GET /api/admin/audit/export.csv": () => new Response("seq\r\n1\r\n", { headers: { "Content-Type": "text/csv" } }),
      "GET /api/admin/audit/verify": () => json({ ok: true, entries: 120, headSeq: 120, head: "f".repeat(64), problems: [] }),
    });
    URL.createObjectURL = vi.fn(() => "blob:x");
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    const { router } = renderRoute(AuditLogPage, "/admin/audit", { validateSearch: auditSearch });
    expect(await screen.findByText("Loading the audit log...")).toBeInTheDocument();
    const rows = await screen.findAllByRole("row");
    expect(rows).toHaveLength(51); // heading + 50
    expect(within(rows[1]).getByText("Entry 120")).toBeInTheDocument();
    expect(screen.getByText("Page 1 of 3 · 120 entries")).toBeInTheDocument();
    expect(await screen.findByTestId("chain-status")).toHaveTextContent(`Chain intact: 120 entries, head ${"f".repeat(64)}`);

    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    // Page 1 stays on screen (keepPreviousData) under a "Page 2 of 3" label until page 2 arrives: wait for its rows.
    expect(await screen.findByText("Entry 70")).toBeInTheDocument();
    expect(screen.getByText("Page 2 of 3 · 120 entries")).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText("Action"), "auth.login");
    await screen.findByText("Page 1 of 1 · 40 entries");
    await userEvent.type(screen.getByLabelText("Actor"), "ada");
    await userEvent.click(screen.getByRole("button", { name: "Filter" }));
    await waitFor(() => expect(asked.at(-1)).toBe("action=auth.login&actor=ada&page=1"));

    await userEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const exportCall = fetch.mock.calls.find(([u]) => String(u).includes("export.csv"))!;
    expect(String(exportCall[0])).toContain("/api/admin/audit/export.csv?action=auth.login&actor=ada");
    expect((exportCall[1] as RequestInit).headers).toMatchObject({ Authorization: "Bearer token-123456789012345678901" });
    // The filters live in the URL; Back undoes the last one.
    expect(router.state.location.search).toEqual({ action: "auth.login", actor: "ada" });
    act(() => router.history.back());
    await waitFor(() => expect(router.state.location.search).toEqual({ action: "auth.login" }));
    await waitFor(() => expect(screen.getByLabelText("Actor")).toHaveValue(""));
  });

  test("an empty log says so, and a broken chain is an alert naming the entry", async () => {
    mockFetch({
      "GET /api/admin/audit": () => json({ items: [], total: 0, page: 1, pageSize: 50, actions: [] }),
      "GET /api/admin/audit/verify": () => json({ ok: false, entries: 3, headSeq: 3, head: "0", problems: [{ seq: 2, id: "e2", problem: "was changed after it was written" }] }),
    });
    renderRoute(AuditLogPage, "/admin/audit", { validateSearch: auditSearch });
    expect(await screen.findByText("No entries match.")).toBeInTheDocument();
    expect(await screen.findByRole("alert")).toHaveTextContent("Entry 2: was changed after it was written");
  });
});

describe("Audit Log summaries", () => {
  test("print each instant in them on the reader's wall clock, keeping the instant in a <time>", async () => {
    session.signIn("token-123456789012345678901", user("admin"));
    const closedAt = "2026-12-01T20:51:00.000Z";
    const close = { ...entry(2, "election.close"), summary: `Closed voting now (${closedAt}): the election and 1 position (President)` };
    const created = { ...entry(1), summary: "Created position President, voting 2026-12-01T07:00:00.000Z to 2026-12-01T20:00:00.000Z" };
    mockFetch({
      "GET /api/admin/audit": () => json({ items: [close, created], total: 2, page: 1, pageSize: 50, actions: ["election.close", "position.create"] }),
      "GET /api/admin/audit/verify": () => json({ ok: true, entries: 2, headSeq: 2, head: "f".repeat(64), problems: [] }),
    });
    renderRoute(AuditLogPage, "/admin/audit", { validateSearch: auditSearch });
    const [, closeRow, createdRow] = await screen.findAllByRole("row");
    const local = (iso: string) => `${formatShortDateTime(iso)} ${zoneOffsetName(iso)}`;
    expect(closeRow).toHaveTextContent(`Closed voting now (${local(closedAt)}): the election and 1 position (President)`);
    expect(createdRow).toHaveTextContent(`voting ${local("2026-12-01T07:00:00.000Z")} to ${local("2026-12-01T20:00:00.000Z")}`);
    for (const row of [closeRow, createdRow]) expect(row.textContent).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(within(closeRow).getByText(local(closedAt))).toHaveAttribute("datetime", closedAt);
  });
});

describe("results sheet", () => {
  test("shows the totals, each position's outcome ('Tie' or the elected name) and the server's digests", async () => {
    session.signIn("token-123456789012345678901", user("observer"));
    const sheet: ResultsSheet = {
      producedAt: "2026-03-02T10:00:00.000Z",
      csvSha256: "c".repeat(64),
      audit: { entries: 12, headSeq: 12, head: "d".repeat(64) },
      results: {
        totalRegisteredVoters: 10,
        totalVotesCast: 4,
        generatedAt: "2026-03-02T10:00:00.000Z",
        results: [
          { positionId: "p1", positionTitle: "President", totalVotes: 3, breakdown: [{ candidateId: "a", name: "Ada", photo: null, votes: 2 }, { candidateId: "g", name: "Grace", photo: null, votes: 1 }] },
          { positionId: "p2", positionTitle: "Secretary", totalVotes: 2, waiting: 3, breakdown: [{ candidateId: "l", name: "Linus", photo: null, votes: 1 }, { candidateId: "m", name: "Margaret", photo: null, votes: 1 }] },
        ],
        ballotBatch: 10,
      },
    };
    mockFetch({
      "GET /api/admin/results/sheet": () => json(sheet),
      "GET /api/election": () => json({ title: "CSC Leadership 2025", subtitle: "Department Elections", startTime: "2025-07-04T10:00:00.000Z", endTime: "2025-07-04T14:00:00.000Z", resultsVisibility: "live", ballotOrder: "fixed" }),
    });
    renderRoute(ResultsSheetPage, "/admin/results/print");
    expect(await screen.findByRole("heading", { name: "CSC Leadership 2025" })).toBeInTheDocument();
    expect(screen.getByTestId("outcome-p1")).toHaveTextContent("Elected: Ada");
    expect(screen.getByTestId("outcome-p2")).toHaveTextContent("Tie");
    expect(screen.getByText("40.0%")).toBeInTheDocument();
    expect(screen.getByTestId("csv-digest")).toHaveTextContent("c".repeat(64));
    expect(screen.getByTestId("audit-head")).toHaveTextContent("d".repeat(64));
    expect(screen.getByText(/Voting window:/)).toBeInTheDocument();
    // Printed while ballots wait for their group, the sheet says so.
    expect(screen.getByRole("note")).toHaveTextContent("groups of 10 per position, to protect the secret ballot. 3 votes are waiting to be added.");
    expect(screen.getByRole("button", { name: "Print" }).parentElement).toHaveClass("print:hidden"); // no controls on paper
  });
});

describe("receipts", () => {
  const hour = 3_600_000;
  const ended: BallotPosition = {
    _id: "p1",
    title: "President",
    startTime: new Date(Date.now() - 3 * hour).toISOString(),
    endTime: new Date(Date.now() - 2 * hour).toISOString(),
    candidates: [],
  };

  test("Counted Ballots lists the codes, the total, and marks the voter's own as counted", async () => {
    session.signIn("token-123456789012345678901", user("voter"));
    mockFetch({
      "GET /api/vote/positions": () => json([ended]),
      "GET /api/vote/my-votes": () => json([{ positionId: "p1", candidateId: "a", candidateName: "Ada", receipt: "7K2M9Q4XTB" }]),
      "GET /api/vote/receipts": () => json({ positionId: "p1", total: 3, receipts: ["0AAAAAAAAA", "7K2M9Q4XTB", "ZZZZZZZZZZ"] }),
    });
    renderWithQuery(<ReceiptsPage />);
    expect(await screen.findByText("3 ballots counted")).toBeInTheDocument();
    expect(screen.getByText("Counted")).toBeInTheDocument();
    expect(within(screen.getByRole("list", { name: "Receipt codes" })).getAllByRole("listitem")).toHaveLength(3);
    await userEvent.type(screen.getByLabelText("Find a receipt"), "zzz");
    expect(await screen.findByText("3 ballots counted · 1 matching")).toBeInTheDocument();
  });

  test("before the close the server's reason is shown, with when voting closes", async () => {
    session.signIn("token-123456789012345678901", user("voter"));
    mockFetch({
      "GET /api/vote/positions": () => json([{ ...ended, endTime: new Date(Date.now() + hour).toISOString() }]),
      "GET /api/vote/my-votes": () => json([]),
      "GET /api/vote/receipts": () => json({ message: "Receipts are published when voting for this position closes" }, 403),
    });
    renderWithQuery(<ReceiptsPage />);
    expect(await screen.findByText(/Receipts are published when voting for this position closes \(voting closes/)).toBeInTheDocument();
  });

  test("after the close, during the grace: when voting closed, until when offline votes are accepted, then receipts", async () => {
    session.signIn("token-123456789012345678901", user("voter"));
    const closedAt = Date.now() - 2 * 60_000;
    mockFetch({
      "GET /api/vote/positions": () => json([{ ...ended, endTime: new Date(closedAt).toISOString() }]),
      "GET /api/vote/my-votes": () => json([]),
      "GET /api/election": () => json({ ...SPEC_ELECTION, voteGraceMinutes: 10 }),
      "GET /api/vote/receipts": () => json({ message: "Receipts are published when voting for this position closes" }, 403),
    });
    renderWithQuery(<ReceiptsPage />);
    const text = `Voting closed at ${formatTime(closedAt)}; votes cast offline before the close are accepted until ${formatTime(closedAt + 10 * 60_000)}; then receipts and the full count.`;
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.queryByText(/Receipts are published when voting/)).toBeNull();
  });

  test("the vote card shows a counted vote's receipt", () => {
    const open = { ...ended, endTime: new Date(Date.now() + hour).toISOString(), candidates: [] };
    renderWithQuery(
      <VoteCard position={open} now={Date.now()} onCast={() => undefined} status={{ kind: "voted", vote: { positionId: "p1", candidateId: "a", candidateName: "Ada", receipt: "7K2M9Q4XTB" } }} />,
    );
    expect(screen.getByTestId("receipt")).toHaveTextContent("Your receipt: 7K2M9Q4XTB");
  });
});

describe("observers", () => {
  test("land on the Admin Panel and see only read-only cards", async () => {
    expect(homeFor("observer")).toBe("/admin");
    session.signIn("token-123456789012345678901", user("observer"));
    const now = Date.now();
    mockFetch({
      "GET /api/admin/turnout": () => json({ hourly: [], groups: [] }),
      // The baseline's election window (docs/product.md) (July 2025) while a position is open now.
      "GET /api/election": () => json(SPEC_ELECTION),
      "GET /api/admin/positions": () => json([{ _id: "p1", title: "President", startTime: new Date(now - 3_600_000).toISOString(), endTime: new Date(now + 3_600_000).toISOString(), candidates: [] }]),
    });
    renderRoute(AdminPanelPage, "/admin");
    expect(await screen.findByText(/You are observing/)).toBeInTheDocument();
    // Observers are told when positions are open outside the election window; only an admin may fix it.
    expect(await screen.findByText("A position is open outside the election window.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Match window to positions" })).toBeNull();
    for (const hidden of ["Create Users", "Create Positions", "Create Candidates", "Import Voters"]) {
      expect(screen.queryByRole("link", { name: new RegExp(hidden) })).toBeNull();
    }
    for (const shown of ["Manage Positions", "Manage Voters", "Polling Stations", "Audit Log", "Results Sheet", "Live Results"]) {
      expect(screen.getByRole("link", { name: new RegExp(shown) })).toBeInTheDocument();
    }
    expect(await screen.findByText("Ballots per hour")).toBeInTheDocument();
  });

  test("their sidebar has no write pages, and the admin guard sends them back from one", () => {
    const items = navFor("observer", observerMayOpen).flatMap((g) => g.items.map((i) => i.to));
    expect(items).toEqual(expect.arrayContaining(["/admin", "/admin/audit", "/admin/voters"]));
    expect(items).not.toContain("/admin/users");
    expect(items).not.toContain("/admin/voters/import");
    expect(navFor("admin", observerMayOpen).flatMap((g) => g.items.map((i) => i.to))).toContain("/admin/users");
    session.signIn("token-123456789012345678901", user("observer"));
    expect(() => requireAdmin({ location: { pathname: "/admin/audit" } })).not.toThrow();
    expect(() => requireAdmin({ location: { pathname: "/admin/users" } })).toThrow();
    expect(() => requireVoter()).toThrow(); // observers never vote: the ballot sends them home
    session.signIn("token-123456789012345678901", user("voter"));
    expect(() => requireAdmin({ location: { pathname: "/admin" } })).toThrow();
    expect(() => requireVoter()).not.toThrow();
  });

  test("tables show no Delete for observers, and do for admins", () => {
    const query = { isPending: false, isError: false, data: [{ _id: "x" }] } as never;
    const table = () => (
      <ManageTable query={query} loading="" failed="" empty="" columns={["Name"]} minWidth="" cells={() => <td>X</td>} name={() => "X"} deleteDisabled={false} onDelete={() => undefined} />
    );
    session.signIn("token-123456789012345678901", user("observer"));
    const { unmount } = renderWithQuery(table());
    expect(screen.queryByRole("button", { name: "Delete X" })).toBeNull();
    expect(screen.queryByText("Actions")).toBeNull();
    unmount();
    session.signIn("token-123456789012345678901", user("admin"));
    renderWithQuery(table());
    expect(screen.getByRole("button", { name: "Delete X" })).toBeInTheDocument();
  });
});
