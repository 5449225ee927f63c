import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import { json, mockFetch } from "../test/fetch-mock";
import { renderRoute } from "../test/render";
import { Route } from "../routes/ballot-box";
import { BallotBoxPage } from "./BallotBoxPage";

const validateSearch = Route.options.validateSearch as (s: Record<string, unknown>) => object;

describe("the public Ballot Box", () => {
  test("per position: fingerprint, trackers, a plain found / not found, the archive and the tool's commands; no sign-in", async () => {
    const fetch = mockFetch({
      "GET /api/positions/verifiable": () => json([{ positionId: "p1", title: "President", uuid: "AbCdEfGhJkLmNp", state: "open" }]),
      "GET /api/positions/p1/board": () => json({ fingerprint: "f".repeat(64), trackers: ["trackerOne", "trackerTwo"] }),
    });
    renderRoute(BallotBoxPage, "/ballot-box", { search: "?tracker=trackerTwo", validateSearch });
    const box = await screen.findByTestId("ballot-box-p1", undefined, { timeout: 5_000 });
    expect(within(box).getByRole("heading", { name: "President" })).toBeInTheDocument();
    expect(await within(box).findByTestId("fingerprint")).toHaveTextContent("f".repeat(64));
    // The tracker's link fills the search in.
    expect(within(box).getByText(/^Found: this ballot is in the ballot box/)).toBeInTheDocument();
    const search = within(box).getByLabelText("Find your tracker");
    await userEvent.clear(search);
    await userEvent.type(search, "trackerThree");
    expect(within(box).getByText(/^Not found: no ballot in this ballot box has this tracker/)).toBeInTheDocument();
    expect(within(box).getByRole("link", { name: "Download the archive (AbCdEfGhJkLmNp.bel)" })).toHaveAttribute("href", "/api/positions/p1/archive.bel");
    const commands = within(box).getByTestId("verify-commands").textContent!;
    expect(commands).toContain("curl -o AbCdEfGhJkLmNp.bel http://localhost:3000/api/positions/p1/archive.bel");
    expect(commands).toContain("belenios-tool election verify --dir .");
    expect(screen.getByRole("link", { name: "Sign in" })).toBeInTheDocument();
    // Public calls: no bearer token.
    for (const [, init] of fetch.mock.calls) expect((init?.headers as Record<string, string> | undefined)?.Authorization).toBeUndefined();
  });

  test("says so when no verifiable position has opened its ballot box", async () => {
    mockFetch({ "GET /api/positions/verifiable": () => json([]) });
    renderRoute(BallotBoxPage, "/ballot-box", { validateSearch });
    expect(await screen.findByText("No verifiable position has opened its ballot box yet.")).toBeInTheDocument();
  });
});
