/**
 * Voter receipts. A receipt code is an HMAC of the ballot's random id under the
 * server's `receipt` key, shown as 10 characters of Crockford base32 (50 bits: unambiguous to
 * read aloud, no I/L/O/U). The database holds no receipt: a copy of it cannot link a code to
 * a ballot (it lacks the key), and a code says nothing about the choice (it hashes only the
 * random id). After a position closes, the list of every counted ballot's code is public, so
 * each voter can find theirs and anyone can check the count equals the tally.
 */
import { randomUUID } from "node:crypto";
import { eq, sum } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { ballots, candidates, pendingBallots, positions } from "../../db/schema.ts";
import type { Keys } from "../../security/keys.ts";
import { receiptCode } from "../../security/receipt-code.ts";

export { receiptCode };

/** A fresh random ballot id and its receipt code, for a vote about to be cast. */
export function newBallot(keys: Pick<Keys, "receipt">): { ballotId: string; receipt: string } {
  const ballotId = randomUUID();
  return { ballotId, receipt: receiptCode(keys, ballotId) };
}

/**
 * Published receipt lists of one database (`Deps.receiptLists`), by position. A list is asked
 * for only once its position has closed for good, when its ballots no longer change, so it is
 * kept while its ballot count stays the same: one sum of its tallies per request instead of an
 * HMAC per ballot, which at 10,000 codes holds the event loop for a noticeable time (decision 0016).
 * The count is the position's ballots for every method, from the tallies each kind of ballot
 * raises (one per ballot: 'no', 'abstain', 'yes', a several-seat ballot's `multi_count`, a
 * single choice's or ranking's first preference; a several-seat ballot's marks are not ballots).
 */
export class ReceiptLists {
  private readonly lists = new Map<string, string[]>();

  constructor(
    private readonly database: Database,
    private readonly keys: Pick<Keys, "receipt">,
  ) {}

  /**
   * Every counted ballot's receipt for a position, sorted (so the order says nothing of time);
   * null while some of its ballots still wait for the mixer, as no list may be published and
   * then grow.
   */
  async of(positionId: string): Promise<string[] | null> {
    // The position's tallies: its ballots' count (the mixer raises them in the ballot's commit)
    // without a pass over the ballots, which have no index by position.
    const { db } = this.database;
    const [[position], [byCandidates], waiting] = await db.batch([
      db
        .select({ method: positions.method, no: positions.noCount, abstain: positions.abstainCount, yes: positions.yesCount, multi: positions.multiCount })
        .from(positions)
        .where(eq(positions.id, positionId)),
      db.select({ votes: sum(candidates.voteCount).mapWith(Number) }).from(candidates).where(eq(candidates.positionId, positionId)),
      db.select({ id: pendingBallots.id }).from(pendingBallots).where(eq(pendingBallots.positionId, positionId)).limit(1),
    ]);
    if (waiting.length > 0) return null;
    const counted = position ? position.no + position.abstain + position.yes + (position.method === "multi" ? position.multi : (byCandidates?.votes ?? 0)) : 0;
    const kept = this.lists.get(positionId);
    if (kept && kept.length === counted) return kept;
    const rows = await db.select({ id: ballots.id }).from(ballots).where(eq(ballots.positionId, positionId));
    const receipts = rows.map((r) => receiptCode(this.keys, r.id)).sort();
    this.lists.set(positionId, receipts);
    return receipts;
  }
}
