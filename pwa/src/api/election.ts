/**
 * Election settings and edits (docs/election.md): the calls and their query
 * options. Settings are read network first with this device's copy as fallback, like the
 * ballot, so the banner and countdown work offline.
 */
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import {
  type Candidate,
  type ElectionSettings,
  type ElectionSettingsInput,
  type Position,
  type PublicElection,
  type UpdatePositionInput,
} from "@evoting/shared";
import { request } from "./client";
import { invalidateElectionData, offlineRead } from "../data/queries";
import { queryKeys } from "../data/query-keys";

export const electionApi = {
  election: () => request<ElectionSettings>("/election"),
  publicElection: () => request<PublicElection>("/election/public", { signOutOn401: false }),
  saveElection: (body: ElectionSettingsInput) => request<ElectionSettings>("/admin/election", { method: "PUT", body }),
  updatePosition: (id: string, body: Partial<Record<keyof UpdatePositionInput, unknown>>) =>
    request<Position & { message: string }>(`/admin/positions/${encodeURIComponent(id)}`, { method: "PATCH", body }),
  updateCandidate: (id: string, fields: { name: string; manifesto: string; photo?: File | null }) => {
    const form = new FormData();
    form.append("name", fields.name);
    form.append("manifesto", fields.manifesto);
    if (fields.photo) form.append("photo", fields.photo);
    return request<Candidate & { message: string }>(`/admin/candidates/${encodeURIComponent(id)}`, { method: "PATCH", body: form });
  },
};

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
