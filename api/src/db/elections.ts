/**
 * The current election, as SQL. An installation keeps every election it has run (`elections`);
 * the newest is the current one. Every read docs/product.md describes for "the election" (positions,
 * results, turnout, who has voted, my votes) goes through these fragments, so an installation
 * with one election reads exactly as before. A past election's positions, candidates, ballots
 * and participations stay in their tables, tied to it by `positions.election_id`: its
 * receipts and the integrity check still read them.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** The current election's id. */
export const CURRENT_ELECTION_SQL = "(SELECT max(id) FROM elections)";

/** The current election's position ids (for `position_id IN ...`). */
export const CURRENT_POSITIONS_SQL = `(SELECT id FROM positions WHERE election_id = ${CURRENT_ELECTION_SQL})`;

/** The same test in a drizzle query: `column` holds a position id of the current election. */
export const inCurrentPositions = (column: SQLWrapper): SQL => sql`${column} IN ${sql.raw(CURRENT_POSITIONS_SQL)}`;

/**
 * A declaration or a new election changes which positions take votes, which the ballot rules
 * cache (services/votes/ballot-rules.ts): the triggers move `catalog_version` only for
 * positions and candidates, so these writes move it themselves.
 */
export const BUMP_CATALOG_VERSION = "INSERT INTO meta (key, value) VALUES ('catalog_version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1";
