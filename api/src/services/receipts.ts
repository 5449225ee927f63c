/**
 * Voter receipts (issue 12). A receipt code is an HMAC of the ballot's random id under the
 * server's `receipt` key, shown as 10 characters of Crockford base32 (50 bits: unambiguous to
 * read aloud, no I/L/O/U). The database holds no receipt: a copy of it cannot link a code to
 * a ballot (it lacks the key), and a code says nothing about the choice (it hashes only the
 * random id). After a position closes, the list of every counted ballot's code is public, so
 * each voter can find theirs and anyone can check the count equals the tally.
 */
import { createHmac } from "node:crypto";
import { RECEIPT_LENGTH } from "@evoting/shared";
import type { Database } from "../db/client.ts";
import type { Keys } from "../security/keys.ts";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function receiptCode(keys: Pick<Keys, "receipt">, ballotId: string): string {
  const digest = createHmac("sha256", keys.receipt).update(`receipt:${ballotId}`).digest();
  let bits = 0n;
  for (const byte of digest.subarray(0, 8)) bits = (bits << 8n) | BigInt(byte);
  let code = "";
  for (let i = 0; i < RECEIPT_LENGTH; i++) code += CROCKFORD[Number((bits >> BigInt(59 - 5 * i)) & 31n)];
  return code;
}

/** Every counted ballot's receipt for a position, sorted (so the order says nothing of time). */
export async function positionReceipts(database: Database, keys: Pick<Keys, "receipt">, positionId: string): Promise<string[]> {
  const rs = await database.client.execute({ sql: "SELECT id FROM ballots WHERE position_id = ?", args: [positionId] });
  return rs.rows.map((r) => receiptCode(keys, String(r.id))).sort();
}
