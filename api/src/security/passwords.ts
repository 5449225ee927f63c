/**
 * Secrets (passwords and dates of birth) are stored only as argon2id hashes at the OWASP
 * minimum (m = 19 MiB, t = 2, p = 1). @node-rs/argon2 hashes on libuv's thread pool, off the
 * event loop. A bounded queue keeps a sign-in rush from piling up unbounded waits: when about
 * a second of hashing is already queued, callers get `HashQueueFull` and the route answers 503
 * with Retry-After instead of collapsing.
 */
import { hash, verify } from "@node-rs/argon2";
import { availableParallelism } from "node:os";

/** `Algorithm` is a const enum, which isolated modules cannot import: 2 is Argon2id. */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class HashQueueFull extends Error {}

class Limiter {
  private running = 0;
  private waiting: (() => void)[] = [];
  /** Moving average of one hash's duration (ms), measured on this machine under its load. */
  private avgMs = 25;
  constructor(
    private readonly concurrency: number,
    private readonly maxQueued: number,
    /** The queue is bounded by the wait it means, not only by a count (bench/rush.ts). */
    private readonly maxWaitMs: number,
  ) {}
  /** How many may wait: about maxWaitMs of work, at least two per worker, at most maxQueued. */
  get limit(): number {
    const byWait = Math.floor((this.maxWaitMs / this.avgMs) * this.concurrency);
    return Math.min(this.maxQueued, Math.max(this.concurrency * 2, byWait));
  }
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.limit) throw new HashQueueFull("hash queue full");
      await new Promise<void>((r) => this.waiting.push(r));
    }
    this.running++;
    const started = performance.now();
    try {
      return await task();
    } finally {
      this.avgMs = this.avgMs * 0.9 + (performance.now() - started) * 0.1;
      this.running--;
      this.waiting.shift()?.();
    }
  }
  get depth(): number {
    return this.waiting.length;
  }
}

// One core is left to the event loop: with every core hashing, a sign-in rush starved all
// other calls (bench/rush.ts, 2 cores: login p95 5.2 s -> 0.47 s, voters/s 32 -> 39).
// A sign-in waits at most ~1 s for its hash; beyond that the caller gets 503 + Retry-After
// and comes back, instead of a queue that grew to 10-20 s waits when sign-ins arrived faster
// than the hash rate (10,000-voter rush at 40/s vs ~35 hashes/s here).
const limiter = new Limiter(Math.max(1, availableParallelism() - 1), 2_000, 1_000);

export const hashSecret = (secret: string): Promise<string> => limiter.run(() => hash(secret, OPTIONS));

export const verifySecret = (hashed: string, secret: string): Promise<boolean> =>
  limiter.run(() => verify(hashed, secret).catch(() => false));

/** A real hash of nothing: verifying against it costs the same as a real account, so timing does not tell. */
let dummyHash: Promise<string> | null = null;
export function dummyVerify(secret: string): Promise<boolean> {
  dummyHash ??= hash("not-a-real-secret", OPTIONS);
  return dummyHash.then((h) => verifySecret(h, secret)).then(() => false);
}

export const hashQueueDepth = (): number => limiter.depth;

export { Limiter as HashLimiter };
