/**
 * Which accounts are voters, in SQL: every role the product does not know as staff (shared's
 * `isStaff`). Registered voters, turnout bases and the roll all count by it, so an officer or
 * an observer never inflates a denominator. The partial index `users_voters_idx` uses the same
 * predicate (SQLite uses a partial index when the query's WHERE holds the index's terms).
 */
export const isVoterSql = (alias?: string): string => {
  const a = alias ? `${alias}.` : "";
  // A voter taken off the roll when a new election replaced it (services/election/next-election.ts)
  // keeps the account its past votes belong to, disabled, and is no voter until imported again.
  return `(${a}role NOT IN ('admin', 'observer', 'officer') AND ${a}disabled_at IS NULL)`;
};
