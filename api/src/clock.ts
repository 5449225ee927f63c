/** Time is injected so window rules and token lifetimes are testable with a fake clock. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * The monotonic process clock, for how long something has been held (a cache's age), not for
 * business time: a wall clock set back would otherwise keep a copy forever. Injected like the
 * wall clock, so a test moves it by hand (a FakeClock) instead of waiting.
 */
export const processClock: Clock = { now: () => performance.now() };

/** A clock tests move by hand. */
export class FakeClock implements Clock {
  constructor(private t: number = Date.parse("2026-01-01T09:00:00Z")) {}
  now(): number {
    return this.t;
  }
  set(t: number | string): void {
    this.t = typeof t === "string" ? Date.parse(t) : t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
