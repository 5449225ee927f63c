/**
 * The open station session: the non-extractable ballot key, the session id and the device's
 * clock correction, in memory (a tiny external store for useSyncExternalStore).
 *
 * So that a reload, the Back gesture or a discarded tab does not end the station while the
 * network is down, the key also lives on the device WRAPPED under the officer's password
 * (PBKDF2 then AES-GCM, in localStorage): never in the clear, and no token opens it. After a
 * reload the station is locked until the officer types the password again, offline too; the
 * same password hands the device back after each voter. docs/decisions/0009.
 */
import { fromBase64Url, importSessionKey, toBase64Url } from "./station-crypto";

export interface LiveStation {
  sessionId: string;
  key: CryptoKey;
  station: { _id: string; name: string };
  /** Server time minus device time at opening: castAt = Date.now() + clockOffset. */
  clockOffset: number;
  /** The officer's sign-in ends here (server time); no ballot may be cast after it. */
  expiresAt: number;
  /** The officer (matric number) who opened it: only their password unlocks it. */
  officer: string;
}

/** What the device keeps of an open station between reloads: everything but the key in the clear. */
interface LockRecord extends Omit<LiveStation, "key"> {
  v: 1;
  salt: string;
  iv: string;
  wrapped: string;
  /** Wrong passwords in a row; at MAX_WRONG the record is dropped and the station must be opened again online. */
  wrong: number;
}

const LOCK_KEY = "evoting-station-lock";
const ITERATIONS = 310_000;
const MAX_WRONG = 5;

export class WrongPasswordError extends Error {}

let live: LiveStation | null = null;
/** Moves on every change of the live session or the locked copy: the screen's snapshot. */
let version = 0;
const listeners = new Set<() => void>();
const emit = () => {
  version++;
  listeners.forEach((l) => l());
};

const bytes = (text: string) => new TextEncoder().encode(text);
function readLock(): LockRecord | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(LOCK_KEY) ?? "null") as LockRecord | null;
    return parsed?.v === 1 ? parsed : null;
  } catch {
    return null;
  }
}
const writeLock = (record: LockRecord | null) => {
  if (record) localStorage.setItem(LOCK_KEY, JSON.stringify(record));
  else localStorage.removeItem(LOCK_KEY);
  emit();
};

async function wrappingKey(password: string, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", bytes(password), "PBKDF2", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "PBKDF2", hash: "SHA-256", salt, iterations: ITERATIONS }, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

/** The raw key inside the record, or WrongPasswordError. */
async function unwrap(record: LockRecord, password: string): Promise<Uint8Array<ArrayBuffer>> {
  const key = await wrappingKey(password, fromBase64Url(record.salt));
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64Url(record.iv), additionalData: bytes(record.sessionId) }, key, fromBase64Url(record.wrapped)));
  } catch {
    throw new WrongPasswordError();
  }
}

export const stationSession = {
  get: () => live,
  version: () => version,
  set(next: LiveStation | null) {
    live = next;
    emit();
  },
  /** Server time now, as this device reckons it. */
  now: (deviceNow = Date.now()) => deviceNow + (live?.clockOffset ?? 0),
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },

  /** The station this device holds locked (after a reload), or null. */
  locked(): { station: { _id: string; name: string }; officer: string } | null {
    if (live) return null;
    const record = readLock();
    return record ? { station: record.station, officer: record.officer } : null;
  },

  /**
   * Starts a session from the server's answer: the raw key is wrapped under the officer's
   * password for after a reload, imported non-extractable for now, and dropped.
   */
  async open(info: Omit<LiveStation, "key">, rawKey: string, password: string) {
    const raw = fromBase64Url(rawKey);
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const wrapped = new Uint8Array(
      await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: bytes(info.sessionId) }, await wrappingKey(password, salt), raw),
    );
    const key = await importSessionKey(raw);
    raw.fill(0);
    live = { ...info, key };
    writeLock({ v: 1, ...info, salt: toBase64Url(salt), iv: toBase64Url(iv), wrapped: toBase64Url(wrapped), wrong: 0 });
  },

  /** Unlocks the station held on this device (after a reload); works offline. */
  async unlock(password: string) {
    const record = readLock();
    if (!record) throw new Error("No station on this device");
    const raw = await this.check(password);
    const key = await importSessionKey(raw);
    raw.fill(0);
    const { sessionId, station, clockOffset, expiresAt, officer } = record;
    live = { sessionId, station, clockOffset, expiresAt, officer, key };
    emit();
  },

  /**
   * Whether `password` is the officer's (it opens the wrapped key): handing the device back
   * after a voter. Wrong ones are counted across reloads; too many drop the station.
   */
  async check(password: string): Promise<Uint8Array<ArrayBuffer>> {
    const record = readLock();
    if (!record) throw new WrongPasswordError();
    try {
      const raw = await unwrap(record, password);
      if (record.wrong > 0) writeLock({ ...record, wrong: 0 });
      return raw;
    } catch (error) {
      const wrong = record.wrong + 1;
      if (wrong >= MAX_WRONG) this.end();
      else writeLock({ ...record, wrong });
      throw error;
    }
  },

  /** The officer steps away (logout): the key leaves memory; the wrapped copy stays for their password. */
  lock() {
    if (!live) return;
    live = null;
    emit();
  },

  /** The station ends on this device: the key in memory and the wrapped copy both go. */
  end() {
    live = null;
    writeLock(null);
  },

  /** How many wrong passwords are left before the station is dropped from this device. */
  triesLeft: () => MAX_WRONG - (readLock()?.wrong ?? 0),
};
