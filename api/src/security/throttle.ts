/**
 * Sign-in throttling, in memory per process (README "Sign-in limits").
 *
 * - Per account: a date of birth is a weak secret (a few thousand plausible values), so after
 *   FREE_FAILURES wrong answers each further one locks the account for a doubling delay
 *   (1 s, 2 s, 4 s … capped at MAX_LOCK_MS). The cap bounds how long an attacker can keep a
 *   voter out; the doubling makes guessing a date of birth take days, not minutes. A success
 *   clears the count; so does FORGET_MS without failures.
 * - Per address: only FAILURES count (a campus behind one NAT signs in hundreds of times a
 *   minute, successfully), up to ADDRESS_FAILURES per ADDRESS_WINDOW_MS.
 * - Check-user: a plain per-address budget, generous for a shared campus address.
 */
import type { Clock } from "../clock.ts";

export const LIMITS = {
  FREE_FAILURES: 5,
  MAX_LOCK_MS: 60_000,
  FORGET_MS: 15 * 60_000,
  ADDRESS_FAILURES: 300,
  ADDRESS_WINDOW_MS: 10 * 60_000,
  CHECK_USER_PER_MINUTE: 3_000,
} as const;

const MAX_ENTRIES = 200_000;

/** A Map that drops its oldest entries past a bound, so an attacker cannot grow memory without limit. */
class BoundedMap<V> extends Map<string, V> {
  override set(key: string, value: V): this {
    if (!this.has(key) && this.size >= MAX_ENTRIES) {
      const oldest = this.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    return super.set(key, value);
  }
}

interface AccountState {
  failures: number;
  lockedUntil: number;
  lastFailure: number;
}

interface Window {
  start: number;
  count: number;
}

export class WindowCounter {
  private windows = new BoundedMap<Window>();
  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}
  /** Milliseconds until the key may act again, or 0. */
  retryAfter(key: string): number {
    const w = this.windows.get(key);
    const now = this.clock.now();
    if (!w || now - w.start >= this.windowMs) return 0;
    return w.count >= this.limit ? w.start + this.windowMs - now : 0;
  }
  hit(key: string): void {
    const now = this.clock.now();
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) this.windows.set(key, { start: now, count: 1 });
    else w.count++;
  }
  /** Counts a hit and tells whether it went over the limit (ms to wait) or 0. */
  take(key: string): number {
    const wait = this.retryAfter(key);
    if (wait > 0) return wait;
    this.hit(key);
    return 0;
  }
}

export class SignInThrottle {
  private accounts = new BoundedMap<AccountState>();
  private addressFailures: WindowCounter;
  readonly checkUser: WindowCounter;

  constructor(private readonly clock: Clock) {
    this.addressFailures = new WindowCounter(clock, LIMITS.ADDRESS_FAILURES, LIMITS.ADDRESS_WINDOW_MS);
    this.checkUser = new WindowCounter(clock, LIMITS.CHECK_USER_PER_MINUTE, 60_000);
  }

  /** Milliseconds the caller must wait before trying this account from this address, or 0. */
  retryAfter(account: string, address: string): number {
    const now = this.clock.now();
    const state = this.accounts.get(account);
    const accountWait = state && state.lockedUntil > now ? state.lockedUntil - now : 0;
    return Math.max(accountWait, this.addressFailures.retryAfter(address));
  }

  fail(account: string, address: string): void {
    const now = this.clock.now();
    let state = this.accounts.get(account);
    if (!state || now - state.lastFailure > LIMITS.FORGET_MS) state = { failures: 0, lockedUntil: 0, lastFailure: now };
    state.failures++;
    state.lastFailure = now;
    const over = state.failures - LIMITS.FREE_FAILURES;
    if (over >= 0) state.lockedUntil = now + Math.min(LIMITS.MAX_LOCK_MS, 1000 * 2 ** over);
    this.accounts.set(account, state);
    this.addressFailures.hit(address);
  }

  succeed(account: string): void {
    this.accounts.delete(account);
  }
}
