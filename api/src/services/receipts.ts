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
import { perDatabase, type Database } from "../db/client.ts";
import type { Keys } from "../security/keys.ts";

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

/**
 * Published lists, per database and position. A list is asked for only once its position has
 * closed for good, when its ballots no longer change, so it is kept while its ballot count
 * stays the same: one sum of its tallies per request instead of an HMAC per ballot (10,000
 * codes took 170-260 ms of event loop on the 2-core dev machine).
 */
const publishedOf = perDatabase(() => new Map<string, string[]>());

/** Every counted ballot's receipt for a position, sorted (so the order says nothing of time). */
export async function positionReceipts(database: Database, keys: Pick<Keys, "receipt">, positionId: string): Promise<string[]> {
  const cache = publishedOf(database);
  // The position's tallies: its ballots' count (the mixer raises them in the ballot's commit)
  // without a pass over the ballots, which have no index by position (migration 0010).
  const counted = await database.client.execute({
    sql: `SELECT p.no_count + p.abstain_count + coalesce((SELECT sum(vote_count) FROM candidates c WHERE c.position_id = p.id), 0) AS n
            FROM positions p WHERE p.id = ?`,
    args: [positionId],
  });
  const kept = cache.get(positionId);
  if (kept && kept.length === Number(counted.rows[0]?.n ?? 0)) return kept;
  const rs = await database.client.execute({ sql: "SELECT id FROM ballots WHERE position_id = ?", args: [positionId] });
  const receipts = rs.rows.map((r) => receiptCode(keys, String(r.id))).sort();
  cache.set(positionId, receipts);
  return receipts;
}
