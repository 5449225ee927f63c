/**
 * Sign-in throttling (docs/security.md, "Sign-in limits"), held in the database so every process and a
 * restart see one count.
 *
 * - A try is counted BEFORE its secret is checked: one conditional upsert on the account's
 *   row either takes a try or refuses, atomically, so a burst of parallel guesses cannot all
 *   pass while earlier ones are still hashing. Pending and failed tries count alike; only a
 *   success clears them (a password change's try stays counted, so changes are throttled too).
 * - Per account: FREE_TRIES tries, then each further one locks the account for a doubling
 *   delay (1 s, 2 s, 4 s … capped at MAX_LOCK_MS). A date of birth is a weak secret, so
 *   guessing one takes days; the cap bounds how long an attacker keeps a voter out. The count
 *   is forgotten FORGET_MS after the last try.
 * - Per address: a budget of ADDRESS_ACCOUNTS distinct accounts with a failure per
 *   ADDRESS_WINDOW_MS. A campus behind one NAT signs in hundreds of times a minute and one
 *   person there may fail hundreds of times on one account: neither touches the budget, so
 *   one address cannot lock its neighbours out; trying many accounts does.
 * - Hash work: at most ADDRESS_HASHES password checks (argon2) per address run or wait in this
 *   process at once, refused before anything is counted, so one address cannot fill the hash
 *   queue everyone shares. A date of birth is a keyed hash (microseconds) and takes no slot:
 *   a campus NAT signing in hundreds at a time waits only for commits.
 * - Check-user: a plain per-address budget in memory, sized so a whole roll can look itself up
 *   from one campus address within a minute; it is one indexed read.
 */
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import { signinWait } from "../db/hot-reads.ts";

export const LIMITS = {
  FREE_TRIES: 5,
  MAX_LOCK_MS: 60_000,
  FORGET_MS: 15 * 60_000,
  ADDRESS_ACCOUNTS: 300,
  ADDRESS_WINDOW_MS: 10 * 60_000,
  ADDRESS_HASHES: 32,
  CHECK_USER_PER_MINUTE: 12_000,
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
  /** Counts a hit and tells whether it went over the limit (ms to wait) or 0. */
  take(key: string): number {
    const now = this.clock.now();
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      this.windows.set(key, { start: now, count: 1 });
      return 0;
    }
    if (w.count >= this.limit) return w.start + this.windowMs - now;
    w.count++;
    return 0;
  }
}

export type Limits = { [K in keyof typeof LIMITS]: number };

/** Lock after the n-th try (1-based): none within the free tries, then 1 s doubling to the cap. */
const lockSql = (n: string) =>
  `CASE WHEN ${n} < :free THEN 0 ELSE :now + min(:maxLock, 1000 * (1 << min(${n} - :free, 20))) END`;

const ADDRESS_BUDGET = `(SELECT count(*) FROM signin_tries
   WHERE address = :address AND failed_at > :windowStart AND account <> :account) < :addressAccounts`;

const NEXT = "((CASE WHEN last_at <= :forgetBefore THEN 0 ELSE tries END) + 1)";

/** Takes a try or takes nothing; returns a row only when the try was taken. */
const TAKE_TRY = `INSERT INTO signin_tries (account, address, tries, last_at, locked_until, failed_at)
  SELECT :account, :address, 1, :now, ${lockSql("1")}, NULL WHERE ${ADDRESS_BUDGET}
  ON CONFLICT (account) DO UPDATE SET
    tries = ${NEXT},
    address = excluded.address,
    last_at = :now,
    locked_until = ${lockSql(NEXT)},
    failed_at = CASE WHEN last_at <= :forgetBefore THEN NULL ELSE failed_at END
  WHERE locked_until <= :now
  RETURNING tries`;

/** One counted try. */
export interface Attempt {
  /** The secret was wrong (or the wrong kind of secret was offered). */
  failed(): Promise<void>;
  /** A sign-in succeeded: the account's count starts over. */
  succeeded(): Promise<void>;
}

export type Begin = { ok: true; attempt: Attempt } | { ok: false; waitMs: number };

export class SignInThrottle {
  private hashing = new Map<string, number>();
  readonly checkUser: WindowCounter;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly limits: Limits = LIMITS,
  ) {
    this.checkUser = new WindowCounter(clock, limits.CHECK_USER_PER_MINUTE, 60_000);
  }

  /**
   * A slot for one password check (argon2) from `address`, or null when the address has
   * ADDRESS_HASHES running or waiting. Taken before the try is counted, so a refusal here
   * changes nothing; the caller frees it with the function returned, whatever happens.
   */
  hashSlot(address: string): (() => void) | null {
    const running = this.hashing.get(address) ?? 0;
    if (running >= this.limits.ADDRESS_HASHES) return null;
    this.hashing.set(address, running + 1);
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      const left = (this.hashing.get(address) ?? 1) - 1;
      if (left > 0) this.hashing.set(address, left);
      else this.hashing.delete(address);
    };
  }

  /** Counts a try on `account` from `address` before anything is checked, or says how long to wait. */
  async begin(account: string, address: string): Promise<Begin> {
    const limits = this.limits;
    const now = this.clock.now();
    const args = { account, address, now, windowStart: now - limits.ADDRESS_WINDOW_MS };
    const [taken] = await this.database.writer.submit([
      {
        sql: TAKE_TRY,
        args: {
          ...args,
          forgetBefore: now - limits.FORGET_MS,
          free: limits.FREE_TRIES,
          maxLock: limits.MAX_LOCK_MS,
          addressAccounts: limits.ADDRESS_ACCOUNTS,
        },
      },
    ]);
    if (taken.rows.length === 0) return { ok: false, waitMs: await this.waitMs(args) };
    const write = (sql: string, args: Record<string, string | number>) =>
      this.database.writer.submit([{ sql, args }]).then(() => undefined);
    return {
      ok: true,
      attempt: {
        failed: () => write("UPDATE signin_tries SET failed_at = :now WHERE account = :account", { account, now: this.clock.now() }),
        succeeded: () => write("DELETE FROM signin_tries WHERE account = :account", { account }),
      },
    };
  }

  private async waitMs(args: { account: string; address: string; now: number; windowStart: number }): Promise<number> {
    const r = await signinWait(this.database, args.account, args.address, args.windowStart);
    const { ADDRESS_ACCOUNTS, ADDRESS_WINDOW_MS } = this.limits;
    const accountWait = Math.max(0, r.lockedUntil - args.now);
    const addressWait = r.failingAccounts >= ADDRESS_ACCOUNTS ? Math.max(0, (r.oldestFailure ?? 0) + ADDRESS_WINDOW_MS - args.now) : 0;
    // A race (the lock ended between the two statements) still answers a short wait.
    return Math.max(accountWait, addressWait, 1_000);
  }
}
