/**
 * Sealing a record at one fixed length. AES-GCM keeps the plaintext's length, so a sealed
 * `{candidateName}` told a copy of the database which candidate it named by its length alone.
 * Every sealed vote record is JSON padded with spaces to a fixed number of bytes
 * before sealing, so every sealed value of one kind has the same length whatever it holds.
 *
 * A record longer than its size (not reachable with the schemas' limits) is padded to the
 * next multiple of the size rather than refused: a vote must never fail on its answer's size.
 */
import { seal, unseal, type Keys } from "./keys.ts";

/** Participation choice and pending ballot: kind, candidate id (<= 64), ballot id, hour. */
export const CHOICE_RECORD_BYTES = 256;

/**
 * The same records for a multi or ranked position: room for its largest ballot (`capacity`,
 * the bytes of its largest marks list: shared `marksCapacity`) on top of the fixed fields, in
 * whole blocks. One size per position, so a ballot's length never says how many candidates it marks.
 */
export const choiceRecordBytes = (capacity: number) => CHOICE_RECORD_BYTES * Math.ceil((CHOICE_RECORD_BYTES + capacity) / CHOICE_RECORD_BYTES);

export function padded(json: string, size: number): string {
  const bytes = Buffer.byteLength(json, "utf8");
  const target = Math.max(size, Math.ceil(bytes / size) * size);
  return json + " ".repeat(target - bytes);
}

export function sealPadded(keys: Keys, value: unknown, context: string, size: number): string {
  return seal(keys, padded(JSON.stringify(value), size), context);
}

/** JSON.parse ignores the trailing spaces; records sealed before padding existed read the same. */
export function unsealPadded<T>(keys: Keys, sealed: string, context: string): T {
  return JSON.parse(unseal(keys, sealed, context)) as T;
}
