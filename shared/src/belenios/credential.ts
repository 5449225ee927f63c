import { pbkdf2 } from "@noble/hashes/pbkdf2.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { G, isGroupElement, powm, Q } from "./group.ts";

/**
 * Voter credentials as Belenios 2.0 makes them (specification 4.8): 14 random base-58 digits and a
 * checksum digit, written XXX-XXX-XXX-XXX-XXX. The private credential never leaves the credential
 * authority's and the voter's devices; the server holds only g^secret for each election uuid.
 */
export const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function checksumDigit(digits: string): string {
  let value = 0n;
  for (const c of digits) value = value * 58n + BigInt(BASE58.indexOf(c));
  return BASE58[53 - Number(value % 53n)];
}

function format(raw: string): string {
  return `${raw.slice(0, 3)}-${raw.slice(3, 6)}-${raw.slice(6, 9)}-${raw.slice(9, 12)}-${raw.slice(12, 15)}`;
}

export function generateCredential(): string {
  let raw = "";
  const byte = new Uint8Array(1);
  while (raw.length < 14) {
    globalThis.crypto.getRandomValues(byte);
    // 232 = 4 * 58: rejecting the rest keeps every digit equally likely.
    if (byte[0] < 232) raw += BASE58[byte[0] % 58];
  }
  return format(raw + checksumDigit(raw));
}

/**
 * The credential in the tool's dashed form, or null when it is mistyped (wrong length, a character
 * outside base 58, or a checksum that does not match). Spaces are dropped and dashes are optional.
 */
export function normalizeCredential(input: string): string | null {
  const raw = input.replace(/[\s-]/g, "");
  if (raw.length !== 15) return null;
  for (const c of raw) if (!BASE58.includes(c)) return null;
  if (checksumDigit(raw.slice(0, 14)) !== raw[14]) return null;
  return format(raw);
}

/** secret(c): PBKDF2-HMAC-SHA256 of the dashed credential, salted with the election uuid, 1000 rounds, mod q. */
export function credentialSecret(credential: string, uuid: string): bigint {
  const derived = pbkdf2(sha256, credential, uuid, { c: 1000, dkLen: 32 });
  return BigInt(`0x${bytesToHex(derived)}`) % Q;
}

/** public(c) = g^secret(c), the string the credential authority uploads for that uuid. */
export function publicCredential(credential: string, uuid: string): string {
  return powm(G, credentialSecret(credential, uuid)).toString();
}

/** A public credential as the archive lists it: a group element in base 10. */
export function isPublicCredential(value: string): boolean {
  if (!/^[1-9][0-9]*$/.test(value) || value.length > 700) return false;
  return isGroupElement(BigInt(value));
}

/**
 * A polling station's list of a locked position's public credentials, so its booth can refuse an
 * unlisted credential offline without holding the credentials (some 617 digits each): per public
 * credential as the archive writes it (base 10), the first 8 bytes of its SHA-256 in hex; the
 * entries sorted and joined (10,000 voters: 160,000 characters, about 85 KB gzipped). Hex, as the
 * package's other opaque values, so it never spells a word. Another credential matches an entry by
 * chance with odds of about n / 2^64.
 */
export const CREDENTIAL_ENTRY_BYTES = 8;
const ENTRY_CHARS = CREDENTIAL_ENTRY_BYTES * 2;

export function credentialEntry(publicCred: string): string {
  return bytesToHex(sha256(utf8ToBytes(publicCred)).subarray(0, CREDENTIAL_ENTRY_BYTES));
}

/** The list from its entries, in any order (the server hashes with its own SHA-256). */
export function packCredentialList(entries: readonly string[]): string {
  return [...entries].sort().join("");
}

/** Whether the list holds the entry (a binary search over the sorted entries). */
export function credentialListHas(list: string, entry: string): boolean {
  let low = 0;
  let high = Math.floor(list.length / ENTRY_CHARS) - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = list.slice(mid * ENTRY_CHARS, (mid + 1) * ENTRY_CHARS);
    if (at === entry) return true;
    if (at < entry) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}
