/**
 * The settings of every connection to the database: the client's, the direct reader's and the
 * writer thread's (PRAGMAs hold per connection, so each one runs the same list).
 */
export interface ConnectionSettings {
  synchronous: "FULL" | "NORMAL";
  busyTimeoutMs: number;
}

/** PRAGMAs for a local database (a file or `:memory:`), in the order they are run. */
export const localPragmas = ({ synchronous, busyTimeoutMs }: ConnectionSettings): string[] => [
  `PRAGMA busy_timeout = ${busyTimeoutMs}`,
  // WAL: readers never block the writer and commits cost one fsync, not two.
  "PRAGMA journal_mode = WAL",
  `PRAGMA synchronous = ${synchronous}`,
  // Deleted rows (pending ballots, expired keys) are zeroed, not left in free space.
  "PRAGMA secure_delete = ON",
  ...everywherePragmas,
];

/** PRAGMAs a remote database takes as well. */
export const everywherePragmas: readonly string[] = [
  // Temporary tables (the mixer's batch) in memory, never in a file beside the database.
  "PRAGMA temp_store = MEMORY",
  "PRAGMA foreign_keys = ON",
];
