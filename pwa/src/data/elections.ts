/** The election's life: query keys, options and what to refetch after a change (the calls: api/elections.ts). */
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { electionsApi } from "../api/elections";
import { invalidateSettings } from "./election";
import { accountabilityKeys } from "./accountability";

export const electionsKeys = {
  declared: ["elections"] as const,
  archive: (id: number) => ["elections", id] as const,
  current: ["admin", "elections", "current"] as const,
};

export const declaredElectionsQuery = () => queryOptions({ queryKey: electionsKeys.declared, queryFn: electionsApi.declared });
/** An archive never changes once declared. */
export const electionArchiveQuery = (id: number) =>
  queryOptions({ queryKey: electionsKeys.archive(id), queryFn: () => electionsApi.archive(id), staleTime: Infinity, retry: false });
/** A route's loader for `/elections/$id` and its sheet: starts fetching the archive a valid id names. */
export function prefetchArchive(client: QueryClient, idParam: string) {
  const id = Number(idParam);
  if (Number.isInteger(id) && id > 0) void client.prefetchQuery(electionArchiveQuery(id));
}
export const currentElectionQuery = () => queryOptions({ queryKey: electionsKeys.current, queryFn: electionsApi.current, refetchInterval: 60_000 });

/**
 * A new election has started: the figures kept of the last one are dropped, not shown while the
 * new ones load (the turnout chart drew the old election's ballots until its next refetch).
 */
export function forgetLastElection(client: QueryClient) {
  client.removeQueries({ queryKey: accountabilityKeys.turnout });
  return invalidateLifecycle(client);
}

/** After a declaration or a new election, everything about "the election" reads afresh. */
export function invalidateLifecycle(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: electionsKeys.current }),
    client.invalidateQueries({ queryKey: electionsKeys.declared }),
    client.invalidateQueries({ queryKey: ["admin", "integrity"] }),
    invalidateSettings(client),
  ]);
}
