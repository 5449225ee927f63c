/**
 * The server's secret keys, all derived (HKDF-SHA256) from one master secret:
 * - `seal`: AES-256-GCM for each voter's own choice and for stored vote answers;
 * - `fingerprint`: HMAC comparing idempotent request bodies without storing them;
 * - `sign`: HMAC for short-lived stream/chat tokens and ballot tickets;
 * - `receipt`: HMAC turning a ballot's random id into the voter's receipt code (services/votes/receipts.ts);
 * - `audit`: HMAC over the audit chain's head (services/accountability/audit-log.ts), so a truncated log is caught;
 * - `dob`: HMAC-SHA-256 of each date of birth (security/passwords.ts, docs/decisions/0007-keyed-date-of-birth.md);
 * - `ballot`: HMAC over each stored ballot's id, position and choice (services/votes/ballot-mac.ts), so
 *   an edited ballot row is caught by the integrity check.
 * The master comes from BALLOT_KEY, else from a key file beside the database (created on
 * first start with mode 0600), never from the database itself: a copy of the database alone
 * cannot unseal anything.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface Keys {
  seal: Buffer;
  fingerprint: Buffer;
  sign: Buffer;
  receipt: Buffer;
  audit: Buffer;
  dob: Buffer;
  ballot: Buffer;
}

function derive(master: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync("sha256", master, "csc-evoting", label, 32));
}

export function keysFromMaster(master: Buffer): Keys {
  if (master.length < 32) throw new Error("The ballot key must be at least 32 bytes");
  return {
    seal: derive(master, "seal"),
    fingerprint: derive(master, "fingerprint"),
    sign: derive(master, "sign"),
    receipt: derive(master, "receipt"),
    audit: derive(master, "audit"),
    dob: derive(master, "dob"),
    ballot: derive(master, "ballot"),
  };
}

function decodeSecret(secret: string): Buffer {
  const trimmed = secret.trim();
  if (/^[0-9a-f]+$/i.test(trimmed) && trimmed.length % 2 === 0) return Buffer.from(trimmed, "hex");
  return Buffer.from(trimmed, "base64");
}

export interface LoadKeyOptions {
  secret?: string;
  keyFile?: string | null;
  log?: (line: string) => void;
}

/** BALLOT_KEY if set; else the key file (generated on first start); else an in-memory key (tests). */
export function loadKeys({ secret, keyFile, log = console.log }: LoadKeyOptions): Keys {
  if (secret) return keysFromMaster(decodeSecret(secret));
  if (!keyFile) return keysFromMaster(randomBytes(32));
  if (existsSync(keyFile)) return keysFromMaster(decodeSecret(readFileSync(keyFile, "utf8")));
  mkdirSync(dirname(keyFile), { recursive: true });
  writeFileSync(keyFile, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
  log(`Generated a new ballot key at ${keyFile}. Back it up with the database: without it sealed votes cannot be read.`);
  return keysFromMaster(decodeSecret(readFileSync(keyFile, "utf8")));
}

const b64u = (b: Buffer) => b.toString("base64url");

/**
 * AES-256-GCM; `context` is bound as associated data so a sealed value cannot be moved to
 * another row. Every seal draws its own random 96-bit nonce: GCM under one key must never
 * see a nonce twice, and a fresh draw per call is the form of that rule nobody can break by
 * a slip elsewhere.
 */
export function seal(keys: Keys, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys.seal, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `${b64u(iv)}.${b64u(cipher.getAuthTag())}.${b64u(body)}`;
}

export function unseal(keys: Keys, sealed: string, context: string): string {
  const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
  const decipher = createDecipheriv("aes-256-gcm", keys.seal, iv);
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
}

export function fingerprint(keys: Keys, value: string): string {
  return createHmac("sha256", keys.fingerprint).update(value).digest("base64url");
}

/** Compact signed token: base64url(JSON payload) + "." + HMAC. Carries `k` (kind) and `exp` (ms). */
export function signToken(keys: Keys, payload: { k: string; exp: number; [field: string]: unknown }): string {
  const body = b64u(Buffer.from(JSON.stringify(payload)));
  return `${body}.${createHmac("sha256", keys.sign).update(body).digest("base64url")}`;
}

export function verifyToken<T extends { k: string; exp: number }>(
  keys: Keys,
  token: string,
  kind: string,
  now: number,
): T | null {
  if (typeof token !== "string" || token.length > 1024) return null;
  const dot = token.indexOf(".");
  if (dot < 1) return null;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = createHmac("sha256", keys.sign).update(body).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
    if (payload.k !== kind || typeof payload.exp !== "number" || payload.exp <= now) return null;
    return payload;
  } catch {
    return null;
  }
}
