/**
 * Election settings and edits (docs/election.md): the calls. Their query options are in
 * data/election.ts.
 */
import {
  type Candidate,
  type ElectionSettings,
  type ElectionSettingsInput,
  type Position,
  type PublicElection,
  type UpdatePositionInput,
} from "@evoting/shared";
import { request } from "./client";

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
