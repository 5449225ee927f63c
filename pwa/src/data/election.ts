/**
 * Election settings' query options. Settings are read network first with this device's copy as
 * fallback, like the ballot, so the banner and countdown work offline (the calls: api/election.ts).
 */
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { electionApi } from "../api/election";
import { invalidateElectionData, offlineRead } from "./queries";
import { queryKeys } from "./query-keys";

/** What shows until the settings have loaded: the baseline's election (docs/product.md), a fresh install's settings. */
export { SPEC_ELECTION } from "@evoting/shared";

const electionFn = offlineRead("election", electionApi.election);
export const electionQuery = () =>
  queryOptions({ queryKey: queryKeys.election, queryFn: electionFn, networkMode: "always", staleTime: 60_000 });

/** After settings change, everything that reads them (banner, results visibility, ballot order) refetches. */
export function invalidateSettings(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.election }),
    invalidateElectionData(client),
  ]);
}
