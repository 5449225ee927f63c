import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { messages, type RollReport, type VoterListItem, type VoterPage } from "@evoting/shared";
import { json, mockFetch } from "../../../test/fetch-mock";
import { renderRoute, renderWithQuery } from "../../../test/render";
import { session } from "../../../auth/session";
import { ImportPreview } from "./ImportPreview";
import { ManageVotersPage } from "../ManageVotersPage";
import { votersSearch } from "../../../data/list-search";
import { CreateUserPage } from "../CreateUserPage";

afterEach(() => session.clear());

const report = (over: Partial<RollReport> = {}): RollReport => ({ dryRun: true, total: 3, created: 2, updated: 1, unchanged: 0, errors: [], ...over });

describe("ImportPreview", () => {
  test("shows the counts and offers to import the voters that change", async () => {
    const onApply = vi.fn();
    renderWithQuery(<ImportPreview report={report()} fileName="roll.csv" applying={false} onApply={onApply} />);
    const counts = screen.getAllByRole("definition").map((d) => d.textContent);
    expect(counts).toEqual(["3", "2", "1", "0"]);
    expect(screen.getByText("New voters")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Import 3 voters" }));
    expect(onApply).toHaveBeenCalledOnce();
  });

  test("lists every error with line, column and message, and offers no import", () => {
    const errors = [
      { line: 3, column: "dateOfBirth", message: messages.dobFormat },
      { line: 5, column: "matricNumber", message: "Duplicate matriculation number in this file (first on line 2)" },
    ];
    renderWithQuery(<ImportPreview report={report({ errors })} fileName="roll.csv" applying={false} onApply={() => {}} />);
    expect(screen.getByRole("alert")).toHaveTextContent("2 errors found. Nothing will be imported");
    const rows = within(screen.getByRole("table", { name: "Errors in the file" })).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getAllByRole("cell").map((c) => c.textContent))).toEqual([
      ["3", "dateOfBirth", messages.dobFormat],
      ["5", "matricNumber", "Duplicate matriculation number in this file (first on line 2)"],
    ]);
    expect(screen.queryByRole("button", { name: /^Import/ })).toBeNull();
  });

  test("says so when the roll already matches the file", () => {
    renderWithQuery(<ImportPreview report={report({ created: 0, updated: 0, unchanged: 3 })} fileName="roll.csv" applying={false} onApply={() => {}} />);
    expect(screen.getByText("Nothing to import: the roll already matches this file.")).toBeInTheDocument();
  });
});

const voter = (n: number, over: Partial<VoterListItem> = {}): VoterListItem => ({
  _id: `v${n}`,
  name: `Voter ${n}`,
  matricNumber: `2020/5570${String(n).padStart(3, "0")}`,
  email: null,
  groups: ["300L"],
  hasPassword: false,
  hasVoted: false,
  ...over,
});
const page = (items: VoterListItem[], total = items.length, p = 1): VoterPage => ({ items, total, page: p, pageSize: 50 });
const admin = { _id: "a", name: "Admin", role: "admin" as const, matricNumber: "0000/5570000", email: null, hasPassword: true };

describe("ManageVotersPage", () => {
  test("lists voters, searches, pages, and deletes after the confirm dialog", async () => {
    session.signIn("token-123456789012345678901", admin);
    const seen: string[] = [];
    const fetch = mockFetch({
      "GET /api/admin/voters": ({ url }) => {
        const q = new URL(url, "http://x").searchParams;
        seen.push(q.toString());
        if (q.get("query") === "ada") return json(page([voter(7, { name: "Ada Obi", hasVoted: true })]));
        if (q.get("page") === "2") return json(page([voter(51)], 51, 2));
        return json(page([voter(1), voter(2, { hasPassword: true })], 51));
      },
      "DELETE /api/admin/voters/v1": () => new Response(null, { status: 204 }),
      "POST /api/admin/voters/v2/reset-password": () => new Response(null, { status: 204 }),
      "GET /api/admin/voters/groups": () => json({ groups: [{ name: "300L", voters: 40 }, { name: "400L", voters: 11 }] }),
    });
    renderRoute(ManageVotersPage, "/admin/voters");
    expect(await screen.findByText("Voter 1")).toBeInTheDocument();
    expect(screen.getByText("51 voters · Page 1 of 2")).toBeInTheDocument();
    const row2 = screen.getByText("Voter 2").closest("tr")!;
    expect(within(row2).getByText("Password")).toBeInTheDocument();
    await userEvent.click(within(row2).getByRole("button", { name: "Reset Password of Voter 2" }));
    const reset = await screen.findByRole("dialog", { name: "Reset Password" });
    expect(reset).toHaveTextContent('Are you sure you want to reset the password of "Voter 2"?');
    expect(reset).toHaveTextContent("They will sign in with their date of birth again, and every device they are signed in on will be signed out.");
    await userEvent.click(within(reset).getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText(messages.resetPasswordSuccess)).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(await screen.findByText("Voter 51")).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText("Search"), "ada");
    expect(await screen.findByText("Ada Obi")).toBeInTheDocument();
    expect(seen.at(-1)).toBe("page=1&query=ada");
    expect(screen.getByRole("button", { name: "Delete Ada Obi" })).toBeDisabled(); // has voted

    await userEvent.clear(screen.getByLabelText("Search"));
    await userEvent.selectOptions(await screen.findByLabelText("Group"), "400L (11)");
    await userEvent.selectOptions(screen.getByLabelText("Voted"), "Not voted");
    await waitFor(() => expect(seen.at(-1)).toBe("page=1&group=400L&voted=no"));
    await userEvent.selectOptions(screen.getByLabelText("Group"), "All groups");
    await userEvent.selectOptions(screen.getByLabelText("Voted"), "All voters");
    await userEvent.click(await screen.findByRole("button", { name: "Delete Voter 1" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete Voter" });
    expect(dialog).toHaveTextContent('Are you sure you want to delete the voter "Voter 1" (2020/5570001)?');
    expect(dialog).toHaveTextContent("This action cannot be undone.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete Voter" }));
    expect(await screen.findByText(messages.deleteVoterSuccess)).toBeInTheDocument();
    expect(fetch.mock.calls.some(([, init]) => init?.method === "DELETE")).toBe(true);
  });

  test("keeps its filters and page in the URL: a shared link opens filtered, a change is a history entry, Back returns", async () => {
    session.signIn("token-123456789012345678901", admin);
    const seen: string[] = [];
    mockFetch({
      "GET /api/admin/voters": ({ url }) => {
        const q = new URL(url, "http://x").searchParams;
        seen.push(q.toString());
        return json(page([voter(Number(q.get("page")) * 100)], 120, Number(q.get("page"))));
      },
      "GET /api/admin/voters/groups": () => json({ groups: [{ name: "300L", voters: 40 }, { name: "400L", voters: 11 }] }),
    });
    const { router } = renderRoute(ManageVotersPage, "/admin/voters", { search: "?group=400L&voted=no&page=2", validateSearch: votersSearch });
    expect(await screen.findByText("Voter 200")).toBeInTheDocument();
    expect(seen.at(-1)).toBe("page=2&group=400L&voted=no");
    await waitFor(() => expect(screen.getByLabelText("Group")).toHaveValue("400L"));
    expect(screen.getByLabelText("Voted")).toHaveValue("no");

    await userEvent.selectOptions(screen.getByLabelText("Voted"), "All voters");
    await waitFor(() => expect(router.state.location.search).toEqual({ group: "400L" }));
    expect(await screen.findByText("Voter 100")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Search"), "ada");
    await waitFor(() => expect(router.state.location.search).toEqual({ group: "400L", query: "ada" }));
    await waitFor(() => expect(seen.at(-1)).toBe("page=1&query=ada&group=400L"));

    // Typing replaced its entry: Back goes to the filter before the 'All voters' choice.
    act(() => router.history.back());
    await waitFor(() => expect(router.state.location.search).toEqual({ group: "400L", voted: "no", page: 2 }));
    expect(await screen.findByText("Voter 200")).toBeInTheDocument();
    expect(screen.getByLabelText("Voted")).toHaveValue("no");
    await waitFor(() => expect(screen.getByLabelText("Search")).toHaveValue(""));
  });

  test("a bad value in the URL falls back to the default", async () => {
    session.signIn("token-123456789012345678901", admin);
    const seen: string[] = [];
    mockFetch({
      "GET /api/admin/voters": ({ url }) => {
        seen.push(new URL(url, "http://x").searchParams.toString());
        return json(page([voter(1)]));
      },
      "GET /api/admin/voters/groups": () => json({ groups: [] }),
    });
    renderRoute(ManageVotersPage, "/admin/voters", { search: "?voted=maybe&page=-3&query=ada", validateSearch: votersSearch });
    expect(await screen.findByText("Voter 1")).toBeInTheDocument();
    expect(seen.at(-1)).toBe("page=1&query=ada");
  });

  test("edits a voter with the create rules, sending only what the form holds", async () => {
    session.signIn("token-123456789012345678901", admin);
    let sent: unknown = null;
    mockFetch({
      "GET /api/admin/voters": () => json(page([voter(1)])),
      "PATCH /api/admin/voters/v1": ({ body }) => {
        sent = JSON.parse(String(body));
        return json({ ...voter(1), message: messages.updateVoterSuccess });
      },
    });
    renderRoute(ManageVotersPage, "/admin/voters");
    await userEvent.click(await screen.findByRole("button", { name: "Edit Voter 1" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Voter" });
    await userEvent.type(within(dialog).getByLabelText("Date of Birth"), "2002");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(within(dialog).getByText(messages.dobFormat)).toBeInTheDocument();
    expect(sent).toBeNull();
    await userEvent.type(within(dialog).getByLabelText("Date of Birth"), "0515");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(sent).toEqual({ name: "Voter 1", email: "", groups: "300L", dateOfBirth: "20020515" }));
    expect(await screen.findByText(messages.updateVoterSuccess)).toBeInTheDocument();
  });

  test("observers see the roll without any write button", async () => {
    session.signIn("token-123456789012345678901", { ...admin, role: "observer" });
    mockFetch({ "GET /api/admin/voters": () => json(page([voter(1)])) });
    renderRoute(ManageVotersPage, "/admin/voters");
    expect(await screen.findByText("Voter 1")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Edit|Delete|Reset Password|Import Voters/ })).toBeNull();
    expect(screen.getByRole("button", { name: "Export CSV" })).toBeInTheDocument();
  });
});

describe("CreateUserPage", () => {
  test("keeps the voter form and asks staff for a password instead of a date of birth", async () => {
    session.signIn("token-123456789012345678901", admin);
    let sent: unknown = null;
    mockFetch({
      "POST /api/admin/users": ({ body }) => {
        sent = JSON.parse(String(body));
        return json({ message: messages.createUserSuccess }, 201);
      },
    });
    renderRoute(CreateUserPage, "/admin/users");
    expect(await screen.findByLabelText("Date of Birth")).toBeInTheDocument();
    expect(screen.queryByLabelText("Password")).toBeNull();
    await userEvent.type(screen.getByLabelText("Name"), "Olu Watcher");
    await userEvent.type(screen.getByLabelText("Matriculation Number"), "0000/5570005");
    await userEvent.selectOptions(screen.getByLabelText("Role"), "observer");
    expect(screen.queryByLabelText("Date of Birth")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Create User" }));
    expect(await screen.findByText(messages.passwordRequired)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Password"), "watch-it");
    await userEvent.click(screen.getByRole("button", { name: "Create User" }));
    await waitFor(() => expect(sent).toEqual({ name: "Olu Watcher", matricNumber: "0000/5570005", role: "observer", groups: [], password: "watch-it" }));
  });
});
