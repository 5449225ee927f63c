/**
 * Sealing a station ballot on the device (WebCrypto AES-256-GCM). The key comes from the
 * server when the officer opens the station and is imported NON-EXTRACTABLE (station-session.ts;
 * on disk only wrapped under the officer's password): the queue on disk holds ciphertext that only
 * the server can open (docs/decisions/0009-stolen-station-device.md).
 */
import { STATION_BALLOT_BLOCK, type SealedStationBallot, type StationBallot } from "@evoting/shared";

export const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> => {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
};

export const toBase64Url = (bytes: Uint8Array): string => {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

/** The ballot key as the device uses it: AES-GCM, encrypt only, never exportable. The caller drops the raw bytes. */
export function importSessionKey(raw: string | Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", typeof raw === "string" ? fromBase64Url(raw) : raw, { name: "AES-GCM" }, false, ["encrypt"]);
}

/** Pads the plaintext to whole blocks so the ciphertext's length says nothing about the choices. */
export function padBallot(ballot: Omit<StationBallot, "pad">): string {
  const bare = JSON.stringify({ ...ballot, pad: "" });
  const size = new TextEncoder().encode(bare).length;
  const padded = Math.ceil(size / STATION_BALLOT_BLOCK) * STATION_BALLOT_BLOCK;
  return JSON.stringify({ ...ballot, pad: "x".repeat(padded - size) });
}

export async function sealBallot(key: CryptoKey, sessionId: string, ballot: Omit<StationBallot, "pad">): Promise<SealedStationBallot> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(sessionId) },
    key,
    new TextEncoder().encode(padBallot(ballot)),
  );
  return { sessionId, iv: toBase64Url(iv), data: toBase64Url(new Uint8Array(data)) };
}
