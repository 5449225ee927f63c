/**
 * Voter receipts (issue 12). A receipt code is an HMAC of the ballot's random id under the
 * server's `receipt` key, shown as 10 characters of Crockford base32 (50 bits: unambiguous to
 * read aloud, no I/L/O/U). The database holds no receipt: a copy of it cannot link a code to
 * a ballot (it lacks the key), and a code says nothing about the choice (it hashes only the
 * random id). After a position closes, the list of every counted ballot's code is public, so
 * each voter can find theirs and anyone can check the count equals the tally.
 */
import { randomUUID } from "node:crypto";
import { perDatabase, type Database } from "../../db/client.ts";
import { ballotsFromThread } from "../../db/thread-executor.ts";
import type { Keys } from "../../security/keys.ts";
import { receiptCode } from "../../security/receipt-code.ts";

export { receiptCode };

/** Ballot ids made per batch on the writer thread; a new batch is asked for below this many. */
const BATCH = 128;

/**
 * Fresh ballot ids with their receipt codes, made ahead (issue 13, tenth pass). A counted
 * vote needs a random ballot id and its code for the answer, and the HMAC was about a tenth
 * of a vote's event-loop time. For a database file they are made in batches on the writer
 * thread and handed out from memory. When none is ready (the first votes, a burst faster
 * than the refill, the thread gone) the vote makes its own here, as every vote does on any
 * other database. An id is random whichever thread makes it, and nothing of it is stored
 * until a vote uses it.
 */
class BallotIds {
  /** [id, code, id, code, …] */
  private readonly ready: string[] = [];
  private refilling = false;

  constructor(private readonly keys: Pick<Keys, "receipt">) {}

  take(): { ballotId: string; receipt: string } {
    if (!this.refilling && this.ready.length < 2 * BATCH) this.refill();
    const receipt = this.ready.pop();
    const ballotId = this.ready.pop();
    return ballotId !== undefined && receipt !== undefined ? { ballotId, receipt } : madeHere(this.keys);
  }

  private refill(): void {
    this.refilling = true;
    ballotsFromThread(this.keys.receipt, BATCH)
      .then(
        (more) => void this.ready.push(...more),
        () => {}, // votes make their own meanwhile; the next take asks again
      )
      .finally(() => (this.refilling = false));
  }
}

const madeHere = (keys: Pick<Keys, "receipt">) => {
  const ballotId = randomUUID();
  return { ballotId, receipt: receiptCode(keys, ballotId) };
};

const ballotIds = new WeakMap<Pick<Keys, "receipt">, BallotIds>();

/** A fresh random ballot id and its receipt code, for a vote about to be cast. */
export function newBallot(database: Database, keys: Pick<Keys, "receipt">): { ballotId: string; receipt: string } {
  if (!database.filePath) return madeHere(keys);
  let ids = ballotIds.get(keys);
  if (!ids) ballotIds.set(keys, (ids = new BallotIds(keys)));
  return ids.take();
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
