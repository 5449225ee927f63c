import { afterEach, describe, expect, test, vi } from "vitest";
import { formatDateTime, formatShortDateTime, zoneOffsetName } from "./format";

/** Runs with the Date's zone offset pinned (minutes behind UTC, as getTimezoneOffset gives it). */
function atOffset(minutesBehindUtc: number) {
  vi.spyOn(Date.prototype, "getTimezoneOffset").mockReturnValue(minutesBehindUtc);
}

describe("times without Intl", () => {
  afterEach(() => vi.restoreAllMocks());

  test("the zone is named by its offset at that instant", () => {
    atOffset(-60);
    expect(zoneOffsetName()).toBe("GMT+1");
    atOffset(210);
    expect(zoneOffsetName()).toBe("GMT-3:30");
    atOffset(-345);
    expect(zoneOffsetName()).toBe("GMT+5:45");
    atOffset(0);
    expect(zoneOffsetName()).toBe("GMT");
  });

  test("a full time: weekday, day, month, year, 24-hour clock and zone, on the wall clock", () => {
    // The wall clock is read through the Date's local getters, so build the instant from them.
    const local = new Date(2025, 6, 4, 9, 5);
    expect(formatDateTime(local)).toBe(`Fri, 4 Jul 2025, 09:05 ${zoneOffsetName(local)}`);
    expect(formatDateTime(local.toISOString())).toBe(formatDateTime(local.getTime()));
    expect(formatShortDateTime(new Date(2026, 11, 31, 23, 59))).toBe("31 Dec 2026, 23:59");
  });

  test("a value that is not a date formats as nothing rather than 'Invalid Date'", () => {
    expect(formatDateTime("not a date")).toBe("");
    expect(formatShortDateTime("")).toBe("");
  });
});
