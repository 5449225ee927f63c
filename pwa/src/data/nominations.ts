/** Nominations' query options and what to refetch after a change (the calls: api/nominations.ts). */
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { nominationsApi, type NominationFilters } from "../api/nominations";
import { invalidateElectionData } from "./queries";
import { queryKeys } from "./query-keys";

export const myNominationsQuery = () => queryOptions({ queryKey: queryKeys.myNominations, queryFn: nominationsApi.mine, staleTime: 30_000 });

export const adminNominationsQuery = (filters: NominationFilters) =>
  queryOptions({ queryKey: [...queryKeys.adminNominations, filters], queryFn: () => nominationsApi.list(filters) });

/** After any change: both sides' lists, and (an approval or withdrawal) the candidates and ballots. */
export function invalidateNominations(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.myNominations }),
    client.invalidateQueries({ queryKey: queryKeys.adminNominations }),
    invalidateElectionData(client),
  ]);
}
