/**
 * Polling officers and Past Elections: an officer's own sign-in opens the published archives
 * (and nothing else of the app); a device holding a station token stays on the station, whoever
 * opened it (decision 0009).
 */
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, test } from "vitest";
import type { ElectionSummary, UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../test/fetch-mock";
import { renderRoute } from "../test/render";
import { navFor } from "../components/layout/nav";
import { PastElectionsPage } from "../screens/elections/PastElectionsPage";
import { StationPage } from "../screens/station/StationPage";
import { homeFor, observerMayOpen, requireAppArea } from "./guards";
import { session, STATION_DEVICE_KEY } from "./session";

const person = (role: UserProfile["role"]): UserProfile => ({ _id: `${role}-1`, name: "Femi Officer", role, matricNumber: "2019/5570777", email: null, hasPassword: true });
afterEach(() => session.clear());

/** Where the signed-in layout's guard lets `path` land: itself, or the redirect's target. */
function landing(path: string): string {
  try {
    requireAppArea({ location: { pathname: path } });
    return path;
  } catch (thrown) {
    return (thrown as { options: { to: string } }).options.to;
  }
}

const declared: ElectionSummary = { id: 1, title: "Union Elections 2026", subtitle: "", startTime: "2026-03-01T08:00:00.000Z", endTime: "2026-03-01T16:00:00.000Z", state: "declared", declaredAt: "2026-03-01T17:00:00.000Z" };

describe("an officer's own sign-in", () => {
  test("opens Past Elections, an archive and its sheet; every other page sends them to their station", () => {
    session.signIn("token-123456789012345678901", person("officer"));
    expect(homeFor("officer")).toBe("/station");
    for (const path of ["/elections", "/elections/", "/elections/3", "/elections/3/print"]) expect(landing(path)).toBe(path);
    for (const path of ["/", "/vote", "/results", "/candidates", "/receipts", "/nominations", "/settings", "/admin", "/admin/stations", "/elections/x", "/elections/3/edit"]) {
      expect(landing(path)).toBe("/station");
    }
    expect(navFor("officer", observerMayOpen).flatMap((g) => g.items.map((i) => i.to))).toEqual(["/station", "/elections"]);
  });

  test("the archive list renders for them, and the station page links to it", async () => {
    session.signIn("token-123456789012345678901", person("officer"));
    mockFetch({ "GET /api/elections": () => json([declared]), "GET /api/health": () => json({ status: "ok" }), "GET /api/station/mine": () => json([]) });
    const { unmount } = renderRoute(PastElectionsPage, "/elections");
    expect(await screen.findByRole("link", { name: "Union Elections 2026" }, { timeout: 8000 })).toBeInTheDocument();
    unmount();
    renderRoute(StationPage, "/station");
    expect(await screen.findByRole("link", { name: "Past Elections" })).toHaveAttribute("href", "/elections");
  });
});

describe("a station device's token", () => {
  test("keeps every role on /station, archives included, across a reload; signing in again lifts it", () => {
    for (const role of ["officer", "admin", "observer"] as const) {
      session.signIn("station-token-12345678901234567", person(role), { stationDevice: true });
      for (const path of ["/elections", "/elections/1", "/elections/1/print", "/admin", "/"]) expect(landing(path)).toBe("/station");
    }
    session.reload();
    expect(session.isStationDevice()).toBe(true);
    expect(landing("/elections")).toBe("/station");
    // A normal sign-in on the device (after signing out, or another tab's) is not a station token.
    session.signIn("token-123456789012345678901", person("officer"));
    expect(localStorage.getItem(STATION_DEVICE_KEY)).toBeNull();
    expect(landing("/elections")).toBe("/elections");
    // A mark left for another token never applies to this one.
    localStorage.setItem(STATION_DEVICE_KEY, "station-token-12345678901234567");
    session.reload();
    expect(landing("/elections")).toBe("/elections");
    session.clear();
    expect(localStorage.getItem(STATION_DEVICE_KEY)).toBeNull();
  });

  test("the station page offers no way to Past Elections", async () => {
    session.signIn("station-token-12345678901234567", person("officer"), { stationDevice: true });
    mockFetch({ "GET /api/health": () => json({ status: "ok" }), "GET /api/station/mine": () => json([]) });
    renderRoute(StationPage, "/station");
    expect(await screen.findByRole("heading", { name: "Polling Station" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Past Elections" })).toBeNull();
  });
});
