/**
 * Who Voted: after a verifiable position's close, the voters who cast a ballot for it (never
 * how) with their count against the ballots on the board, a search, the CSV and a printout of
 * the whole list; before the close, the server's refusal and when the list comes. The API is a
 * stub answering as api/src/routes/admin/results.ts does.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { messages, type Position, type UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../../../test/fetch-mock";
import { renderRoute } from "../../../test/render";
import { captureDownloads } from "../../../test/downloads";
import { session } from "../../../auth/session";
import { navFor } from "../../../components/layout/nav";
import { observerMayOpen, requireAdmin } from "../../../auth/guards";
import { TrusteesPage } from "./TrusteesPage";
import { WhoVotedPage, WHO_VOTED_PAGE_SIZE } from "./WhoVotedPage";

const admin: UserProfile = { _id: "a1", name: "Ada Officer", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true };
const observer: UserProfile = { ...admin, _id: "o1", name: "Olu Agent", role: "observer" };
const wait = { timeout: 8000 };
const HOUR = 3_600_000;
const validateSearch = (s: Record<string, unknown>) => (typeof s.position === "string" ? { position: s.position } : {});

let saved: Map<string, Blob>;
beforeEach(() => {
  saved = captureDownloads();
});
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
  delete document.body.dataset.print;
});

const position = (p: Partial<Position>): Position => ({
  _id: "p1",
  title: "President",
  startTime: new Date(Date.now() - 3 * HOUR).toISOString(),
  endTime: new Date(Date.now() - HOUR).toISOString(),
  candidates: [],
  belenios: { uuid: "uuidPresident1", state: "tallying" },
  ...p,
});

const voters = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ matricNumber: `2020/55${String(i + 1).padStart(5, "0")}`, name: `Voter ${i + 1}` }));

const election = { title: "SUG Election 2026", subtitle: "", startTime: "", endTime: "", resultsVisibility: "live", ballotOrder: "fixed", voteGraceMinutes: 10 };

test("the sidebar's 'Election' group holds Who Voted, for admins and observers", () => {
  for (const role of ["admin", "observer"]) {
    expect(navFor(role, observerMayOpen).find((g) => g.title === "Election")!.items.map((i) => i.label)).toContain("Who Voted");
  }
  session.signIn("token-123456789012345678901", observer);
  expect(() => requireAdmin({ location: { pathname: "/admin/who-voted" } })).not.toThrow();
});

describe("Who Voted", () => {
  test("lists who voted with the count against the ballot box, searches, pages, and gives the CSV and a printout of the whole list", async () => {
    session.signIn("token-123456789012345678901", admin);
    const list = voters(WHO_VOTED_PAGE_SIZE + 20);
    list[42] = { matricNumber: "2021/5570777", name: "Kemi Ajayi" };
    const asked: string[] = [];
    mockFetch({
      "GET /api/election": () => json(election),
      "GET /api/admin/positions": () =>
        json([
          position({ _id: "p0", title: "Class Rep", endTime: new Date(Date.now() + HOUR).toISOString(), belenios: { uuid: "uuidClassRep22", state: "open" } }),
          position({}),
          { ...position({ _id: "p9", title: "Not Verifiable" }), belenios: undefined },
        ]),
      "GET /api/admin/positions/p1/who-voted": () => {
        asked.push("p1");
        return json({ positionId: "p1", positionTitle: "President", voters: list, ballotsOnBoard: list.length });
      },
    });
    renderRoute(WhoVotedPage, "/admin/who-voted", { validateSearch });
    const u = userEvent.setup();
    // The closed one is chosen; an ordinary position is not offered.
    const select = await screen.findByLabelText("Position", {}, wait);
    expect(within(select).getAllByRole("option").map((o) => o.textContent)).toEqual(["Class Rep", "President"]);
    expect(await screen.findByRole("heading", { name: "Who voted: President" }, wait)).toBeInTheDocument();
    expect(screen.getByText(`${list.length} voters voted; ${list.length} ballots on the ballot box.`)).toBeInTheDocument();
    expect(screen.getByText(/The ballot box holds one ballot for each voter listed/)).toBeInTheDocument();
    const table = screen.getByRole("table", { name: "Who voted for President, page 1 of 2" });
    expect(within(table).getAllByRole("row")).toHaveLength(WHO_VOTED_PAGE_SIZE + 1);
    expect(within(table).getByRole("row", { name: /Voter 1 2020\/5500001/ })).toBeInTheDocument();
    // Nothing of a choice on the screen.
    expect(screen.queryByText(/candidate/i)).not.toBeInTheDocument();

    await u.click(screen.getByRole("button", { name: "Next" }));
    expect(within(screen.getByRole("table", { name: "Who voted for President, page 2 of 2" })).getAllByRole("row")).toHaveLength(21);
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();

    await u.type(screen.getByRole("searchbox", { name: "Search" }), "5570777");
    const found = screen.getByRole("table", { name: "Who voted for President, page 1 of 1" });
    expect(within(found).getAllByRole("row")).toHaveLength(2);
    expect(within(found).getByText("Kemi Ajayi")).toBeInTheDocument();
    expect(screen.getByText(`1 match of ${list.length} · Page 1 of 1`)).toBeInTheDocument();
    await u.clear(screen.getByRole("searchbox", { name: "Search" }));
    await u.type(screen.getByRole("searchbox", { name: "Search" }), "kemi");
    expect(within(screen.getByRole("table", { name: /page 1 of 1/ })).getByText("2021/5570777")).toBeInTheDocument();
    await u.type(screen.getByRole("searchbox", { name: "Search" }), "zzz");
    expect(screen.getByText('No voter on the list matches "kemizzz".')).toBeInTheDocument();

    await u.click(screen.getByRole("button", { name: "Download CSV" }));
    const csv = (await saved.get("who-voted-president.csv")!.text()).split("\r\n");
    expect(csv[0]).toBe("matricNumber,name");
    expect(csv).toContain("2021/5570777,Kemi Ajayi");
    expect(csv.filter(Boolean)).toHaveLength(list.length + 1);

    // Printing draws the whole list (whatever the search) and prints it alone.
    expect(document.body.dataset.print).toBe("who-voted");
    expect(document.getElementById("who-voted-print")).toBeNull();
    const print = vi.spyOn(window, "print").mockImplementation(() => {
      window.dispatchEvent(new Event("beforeprint"));
      const printed = document.getElementById("who-voted-print")!;
      expect(printed).toHaveTextContent("SUG Election 2026");
      expect(within(printed).getAllByRole("row")).toHaveLength(list.length + 1);
      window.dispatchEvent(new Event("afterprint"));
    });
    await u.click(screen.getByRole("button", { name: "Print" }));
    expect(print).toHaveBeenCalled();
    await waitFor(() => expect(document.getElementById("who-voted-print")).toBeNull());
    expect(asked).toEqual(["p1"]);
  });

  test("before the close it says when the list comes, and 'Check again' shows it once the server gives it", async () => {
    session.signIn("token-123456789012345678901", observer);
    let closed = false;
    mockFetch({
      "GET /api/election": () => json(election),
      "GET /api/admin/positions": () => json([position({ endTime: new Date(Date.now() + HOUR).toISOString(), belenios: { uuid: "uuidPresident1", state: "open" } })]),
      "GET /api/admin/positions/p1/who-voted": () =>
        closed
          ? json({ positionId: "p1", positionTitle: "President", voters: voters(2), ballotsOnBoard: 2 })
          : json({ message: messages.whoVotedNotClosed }, 409),
    });
    renderRoute(WhoVotedPage, "/admin/who-voted", { search: "?position=p1", validateSearch });
    expect(await screen.findByText(messages.whoVotedNotClosed, {}, wait)).toBeInTheDocument();
    expect(screen.getByText(/^Voting for President closes /)).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    closed = true;
    await userEvent.setup().click(screen.getByRole("button", { name: "Check again" }));
    expect(await screen.findByRole("table", { name: "Who voted for President, page 1 of 1" }, wait)).toBeInTheDocument();
    expect(screen.getByText("2 voters voted; 2 ballots on the ballot box.")).toBeInTheDocument();
  });

  test("more ballots on the ballot box than voters listed is an alert; an empty list and a failed load say so", async () => {
    session.signIn("token-123456789012345678901", admin);
    mockFetch({
      "GET /api/election": () => json(election),
      "GET /api/admin/positions": () =>
        json([position({}), position({ _id: "p2", title: "Treasurer", belenios: { uuid: "uuidTreasurer3", state: "decrypted" } }), position({ _id: "p3", title: "Secretary" })]),
      "GET /api/admin/positions/p1/who-voted": () => json({ positionId: "p1", positionTitle: "President", voters: voters(2), ballotsOnBoard: 3 }),
      "GET /api/admin/positions/p2/who-voted": () => json({ positionId: "p2", positionTitle: "Treasurer", voters: [], ballotsOnBoard: 0 }),
      "GET /api/admin/positions/p3/who-voted": () => json({}, 500),
    });
    renderRoute(WhoVotedPage, "/admin/who-voted", { validateSearch });
    const u = userEvent.setup();
    expect(await screen.findByRole("alert", {}, wait)).toHaveTextContent("The ballot box holds 3 ballots but 2 voters are listed");
    await u.selectOptions(screen.getByLabelText("Position"), "p2");
    expect(await screen.findByText("No voter cast a ballot for this position.", {}, wait)).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    await u.selectOptions(screen.getByLabelText("Position"), "p3");
    expect(await screen.findByText("Failed to load who voted", {}, wait)).toBeInTheDocument();
  });

  test("no verifiable position yet", async () => {
    session.signIn("token-123456789012345678901", admin);
    mockFetch({ "GET /api/election": () => json(election), "GET /api/admin/positions": () => json([]) });
    renderRoute(WhoVotedPage, "/admin/who-voted", { validateSearch });
    expect(await screen.findByText(/No verifiable position yet/, {}, wait)).toBeInTheDocument();
  });

  test("the Trustees page's verifiable positions lead to who voted once a locked one has ended", async () => {
    session.signIn("token-123456789012345678901", admin);
    mockFetch({
      "GET /api/admin/trustees": () => json([]),
      "GET /api/admin/positions": () =>
        json([
          position({}),
          position({ _id: "p2", title: "Treasurer", endTime: new Date(Date.now() + HOUR).toISOString(), belenios: { uuid: "uuidTreasurer3", state: "open" } }),
        ]),
    });
    renderRoute(TrusteesPage, "/admin/trustees");
    const link = await screen.findByRole("link", { name: "Who voted for President" }, wait);
    expect(link).toHaveAttribute("href", "/admin/who-voted?position=p1");
    expect(screen.queryByRole("link", { name: "Who voted for Treasurer" })).not.toBeInTheDocument();
  });
});
