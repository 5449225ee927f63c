/**
 * Receipt codes (services/votes/receipts.ts says what they are for): an HMAC of the
 * ballot's random id under the server's `receipt` key, shown as 10 characters of Crockford
 * base32.
 */
import { createHmac } from "node:crypto";
import { RECEIPT_LENGTH } from "@evoting/shared";
import type { Keys } from "./keys.ts";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function receiptCode(keys: Pick<Keys, "receipt">, ballotId: string): string {
  const digest = createHmac("sha256", keys.receipt).update(`receipt:${ballotId}`).digest();
  // The digest's first 50 bits, 5 at a time: 30 from the first word, 20 from the second.
  const high = digest.readUInt32BE(0);
  const low = digest.readUInt32BE(4);
  let code = "";
  for (let i = 0; i < 6; i++) code += CROCKFORD[(high >>> (27 - 5 * i)) & 31];
  for (let i = 0; i < RECEIPT_LENGTH - 6; i++) code += CROCKFORD[(low >>> (27 - 5 * i)) & 31];
  return code;
}
