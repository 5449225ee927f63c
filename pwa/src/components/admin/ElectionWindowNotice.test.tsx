import { describe, expect, it } from "vitest";
import { openOutsideWindow } from "./ElectionWindowNotice";

const at = (iso: string) => Date.parse(iso);
const positions = [
  { startTime: "2026-11-25T08:00:00.000Z", endTime: "2026-11-25T16:00:00.000Z" },
  { startTime: "2026-11-25T09:00:00.000Z", endTime: "2026-11-25T18:00:00.000Z" },
];

describe("positions open outside the election window", () => {
  it("is found when the window ended (the demo's July 2025) while positions are open, and the fix spans every position", () => {
    const election = { startTime: "2025-07-01T08:00:00.000Z", endTime: "2025-07-01T17:00:00.000Z" };
    expect(openOutsideWindow(positions, election, at("2026-11-25T10:00:00.000Z"))).toEqual({
      open: 2,
      startTime: "2026-11-25T08:00:00.000Z",
      endTime: "2026-11-25T18:00:00.000Z",
    });
  });

  it("is nothing inside the window, or when no position is open", () => {
    const election = { startTime: "2026-11-25T07:00:00.000Z", endTime: "2026-11-25T19:00:00.000Z" };
    expect(openOutsideWindow(positions, election, at("2026-11-25T10:00:00.000Z"))).toBeNull();
    expect(openOutsideWindow(positions, { startTime: "2025-07-01T08:00:00.000Z", endTime: "2025-07-01T17:00:00.000Z" }, at("2026-11-25T20:00:00.000Z"))).toBeNull();
  });
});
