/**
 * Which accounts are voters, in SQL: every role the product does not know as staff (shared's
 * `isStaff`). Registered voters, turnout bases and the roll all count by it, so an officer or
 * an observer never inflates a denominator. The partial index `users_voters_idx` uses the same
 * predicate.
 */
export const isVoterSql = (alias?: string): string => `${alias ? `${alias}.` : ""}role NOT IN ('admin', 'observer', 'officer')`;
