import { act, render, screen } from "@testing-library/react";
import { describe, expect, test, vi } from "vitest";
import { ELECTION_END, ELECTION_START } from "@evoting/shared";
import { CountdownTile } from "./CountdownTile";

const values = () => Array.from(screen.getByTestId("countdown").querySelectorAll(".font-mono")).map((n) => n.textContent);

describe("CountdownTile (fixed window 2025-07-04 10:00–14:00 UTC)", () => {
  test("before the start: 'STARTS IN' with two-digit days, hours, minutes, seconds, ticking each second", () => {
    vi.useFakeTimers();
    // 1 day, 2 h, 3 min, 4 s before 10:00 UTC on 4 July.
    vi.setSystemTime(new Date("2025-07-03T07:56:56.000Z"));
    render(<CountdownTile start={ELECTION_START} end={ELECTION_END} />);
    expect(screen.getByText("STARTS IN")).toBeInTheDocument();
    expect(values()).toEqual(["01", "02", "03", "04"]);
    for (const label of ["Days", "Hours", "Minutes", "Seconds"]) expect(screen.getByText(label)).toBeInTheDocument();
    void act(() => vi.advanceTimersByTime(1000));
    expect(values()).toEqual(["01", "02", "03", "03"]);
    void act(() => vi.advanceTimersByTime(4000));
    expect(values()).toEqual(["01", "02", "02", "59"]);
  });

  test("during the window: 'ENDS IN' counts down to the end", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2025-07-04T12:30:00.000Z"));
    render(<CountdownTile start={ELECTION_START} end={ELECTION_END} />);
    expect(screen.getByText("ENDS IN")).toBeInTheDocument();
    expect(values()).toEqual(["00", "01", "30", "00"]);
    expect(screen.getByTestId("countdown")).toHaveAttribute("data-phase", "active");
  });

  test("at the start instant the phase flips from before_start to active on the next tick", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2025-07-04T09:59:59.000Z"));
    render(<CountdownTile start={ELECTION_START} end={ELECTION_END} />);
    expect(screen.getByText("STARTS IN")).toBeInTheDocument();
    void act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText("ENDS IN")).toBeInTheDocument();
    expect(values()).toEqual(["00", "04", "00", "00"]);
  });

  test("after the end: 'ELECTION' 'ENDED' and no numbers", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2025-07-04T14:00:00.000Z"));
    render(<CountdownTile start={ELECTION_START} end={ELECTION_END} />);
    expect(screen.getByText("ELECTION")).toBeInTheDocument();
    expect(screen.getByText("ENDED")).toBeInTheDocument();
    expect(values()).toEqual([]);
  });

  test("without a start date it is active until the end", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2025-07-01T00:00:00.000Z"));
    render(<CountdownTile end={ELECTION_END} />);
    expect(screen.getByText("ENDS IN")).toBeInTheDocument();
  });
});
