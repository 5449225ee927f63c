/** The voter roll's query options (the calls: api/roll.ts). */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { rollApi, type VoterFilters } from "../api/roll";
import { queryKeys } from "./query-keys";

export const rollGroupsQuery = () => queryOptions({ queryKey: [...queryKeys.voters, "groups"] as const, queryFn: rollApi.groups });

export const votersQuery = (filters: VoterFilters) =>
  queryOptions({
    queryKey: [...queryKeys.voters, filters] as const,
    queryFn: () => rollApi.voters(filters),
    // The current page stays on screen while the next one loads (no flash of "Loading...").
    placeholderData: keepPreviousData,
  });
