/**
 * Passwords are stored only as argon2id hashes at the OWASP
 * minimum (m = 19 MiB, t = 2, p = 1). @node-rs/argon2 hashes on libuv's thread pool, off the
 * event loop. A bounded queue keeps a sign-in rush from piling up unbounded memory: when more
 * than `maxQueued` hashes wait, callers get `HashQueueFull` and the route answers 503 with
 * Retry-After instead of collapsing.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { availableParallelism } from "node:os";

/** `Algorithm` is a const enum, which isolated modules cannot import: 2 is Argon2id. */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class HashQueueFull extends Error {}

class Limiter {
  private running = 0;
  private waiting: (() => void)[] = [];
  constructor(
    private readonly concurrency: number,
    private readonly maxQueued: number,
  ) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxQueued) throw new HashQueueFull("hash queue full");
      await new Promise<void>((r) => this.waiting.push(r));
    }
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
  get depth(): number {
    return this.waiting.length;
  }
}

const limiter = new Limiter(Math.max(2, availableParallelism()), 2_000);

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

/**
 * Dates of birth are not passwords (about 15 bits: no hash makes guessing one slow enough to
 * matter once the hashes leak). They are stored as HMAC-SHA-256 under `keys.dob`, derived
 * from the server secret that never lives in the database, and bound to the matriculation
 * number so two voters born the same day do not share a stored value. Checking costs
 * microseconds and never touches the argon2 queue. docs/decisions/0007-keyed-date-of-birth.md
 */
const KEYED_DOB = "hmac1$";

export function hashDateOfBirth(dobKey: Buffer, matricNumber: string, dateOfBirth: string): string {
  return KEYED_DOB + createHmac("sha256", dobKey).update(`${matricNumber}\n${dateOfBirth}`).digest("base64url");
}

export const isKeyedDobHash = (stored: string): boolean => stored.startsWith(KEYED_DOB);

/**
 * `legacy`: the stored value is an argon2id hash from before keyed hashes; the caller replaces
 * it with the keyed one once the date has been proven right.
 */
export async function verifyDateOfBirth(
  dobKey: Buffer,
  stored: string,
  matricNumber: string,
  dateOfBirth: string,
): Promise<{ ok: boolean; legacy: boolean }> {
  if (!isKeyedDobHash(stored)) return { ok: await verifySecret(stored, dateOfBirth), legacy: true };
  const expected = Buffer.from(hashDateOfBirth(dobKey, matricNumber, dateOfBirth));
  const given = Buffer.from(stored);
  return { ok: expected.length === given.length && timingSafeEqual(expected, given), legacy: false };
}
