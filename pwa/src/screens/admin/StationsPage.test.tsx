/** Polling Stations: create, assign, revoke with a confirmation; observers read only. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import type { StationDevice, StationInfo, UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../../test/fetch-mock";
import { renderWithQuery } from "../../test/render";
import { session } from "../../auth/session";
import { StationsPage } from "./StationsPage";

const user = (role: UserProfile["role"]): UserProfile => ({ _id: `${role}-1`, name: role, role, matricNumber: "0000/5570001", email: null, hasPassword: true });

const hall = (over: Partial<StationInfo> = {}): StationInfo => ({
  _id: "s1",
  name: "Library Hall 1",
  createdAt: "2026-03-02T09:00:00.000Z",
  revokedAt: null,
  ballotsTaken: 3,
  officers: [{ _id: "o1", name: "Femi Officer", matricNumber: "2019/5570777", role: "officer" }],
  ...over,
});

describe("Polling Stations page", () => {
  test("an admin creates a station, assigns an officer and revokes after confirming", async () => {
    session.signIn("token-123456789012345678901", user("admin"));
    let stations: StationInfo[] = [];
    const bodies: unknown[] = [];
    mockFetch({
      "GET /api/admin/stations": () => json(stations),
      "POST /api/admin/stations": ({ body }) => {
        bodies.push(JSON.parse(String(body)));
        stations = [hall({ officers: [], ballotsTaken: 0 })];
        return json(stations[0], 201);
      },
      "POST /api/admin/stations/s1/officers": ({ body }) => {
        bodies.push(JSON.parse(String(body)));
        stations = [hall({ ballotsTaken: 0 })];
        return json(stations[0].officers[0], 201);
      },
      "POST /api/admin/stations/s1/revoke": () => {
        stations = [hall({ revokedAt: "2026-03-02T10:00:00.000Z" })];
        return json({ message: "Polling station revoked" });
      },
    });
    renderWithQuery(<StationsPage />);
    const u = userEvent.setup();
    await screen.findByText("No polling stations yet.");
    await u.click(screen.getByRole("button", { name: "Create Station" }));
    expect(screen.getByText("Station name is required")).toBeInTheDocument();
    await u.type(screen.getByLabelText("Station name"), "Library Hall 1");
    await u.click(screen.getByRole("button", { name: "Create Station" }));
    await u.type(await screen.findByLabelText("Officer matric number for Library Hall 1"), "2019/5570777");
    await u.click(screen.getByRole("button", { name: "Assign Officer" }));
    await screen.findByText("Femi Officer");
    expect(bodies).toEqual([{ name: "Library Hall 1" }, { matricNumber: "2019/5570777" }]);

    await u.click(screen.getByRole("button", { name: "Revoke" }));
    const dialog = await screen.findByRole("dialog", { name: "Revoke Station" });
    await u.click(within(dialog).getByRole("button", { name: "Revoke Station" }));
    await screen.findByText(/^Revoked/);
    expect(screen.queryByRole("button", { name: "Revoke" })).not.toBeInTheDocument();
  });

  test("an observer sees stations, officers and ballots taken, and nothing to change them with", async () => {
    session.signIn("token-123456789012345678901", user("observer"));
    mockFetch({ "GET /api/admin/stations": () => json([hall()]) });
    renderWithQuery(<StationsPage />);
    await screen.findByText("Femi Officer");
    expect(screen.getByText(/3 ballots taken/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("button", { name: /Create Station|Assign Officer|Revoke|Remove/ })).not.toBeInTheDocument());
    expect(screen.queryByLabelText("Station name")).not.toBeInTheDocument();
  });
});

describe("station devices", () => {
  const device = (over: Partial<StationDevice> = {}): StationDevice => ({
    _id: "d1",
    station: { _id: "s1", name: "Library Hall 1" },
    officer: { name: "Femi Officer", matricNumber: "2019/5570777" },
    openedAt: "2026-03-02T09:00:00.000Z",
    closedAt: null,
    lostAt: null,
    held: { total: 0, positions: [] },
    ...over,
  });

  test("an admin reports a device lost, then the committee accepts its held ballots after confirming", async () => {
    session.signIn("token-123456789012345678901", user("admin"));
    let devices = [device()];
    const calls: string[] = [];
    mockFetch({
      "GET /api/admin/stations": () => json([hall()]),
      "GET /api/admin/stations/devices": () => json(devices),
      "POST /api/admin/stations/devices/d1/lost": () => {
        calls.push("lost");
        devices = [device({ lostAt: "2026-03-02T10:00:00.000Z", closedAt: "2026-03-02T10:00:00.000Z", held: { total: 2, positions: [{ positionId: "p1", positionTitle: "President", ballots: 2 }] } })];
        return json({ message: "Station device reported lost" });
      },
      "POST /api/admin/stations/devices/d1/held": ({ body }) => {
        calls.push(JSON.parse(String(body)).decision);
        devices = [device({ lostAt: "2026-03-02T10:00:00.000Z", closedAt: "2026-03-02T10:00:00.000Z" })];
        return json({ message: "2 held ballots accepted: 2 counted, 0 refused" });
      },
    });
    renderWithQuery(<StationsPage />);
    const u = userEvent.setup();
    const list = await screen.findByTestId("station-devices");
    await u.click(within(list).getByRole("button", { name: "Report lost" }));
    await u.click(within(await screen.findByRole("dialog", { name: "Report Device Lost" })).getByRole("button", { name: "Report Lost" }));
    await screen.findByText("2 ballots held for the committee: President 2");
    await u.click(screen.getByRole("button", { name: "Accept held ballots" }));
    const dialog = await screen.findByRole("dialog", { name: "Accept Held Ballots" });
    expect(dialog).toHaveTextContent("Count all 2 ballots held from this device (President 2)?");
    await u.click(within(dialog).getByRole("button", { name: "Accept Ballots" }));
    await waitFor(() => expect(screen.queryByText(/ballots held for the committee/)).toBeNull());
    expect(calls).toEqual(["lost", "accept"]);
  });
});
