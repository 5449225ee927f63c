/** Time is injected so window rules and token lifetimes are testable with a fake clock. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

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
