/**
 * Nominations (shared/src/nominations.ts): a voter's application, their supporters' answers,
 * and the committee's screening. Network only: nothing here is needed offline. Query options:
 * data/nominations.ts.
 */
import type { MyNominations, Nomination, NominationState } from "@evoting/shared";
import { request } from "./client";

export interface NominationFilters {
  state: NominationState | "";
  positionId: string;
}

type Answered = Nomination & { message: string };

export const nominationsApi = {
  mine: () => request<MyNominations>("/nominations"),
  apply: (fields: { positionId: string; manifesto: string; proposer: string; seconder: string; photo: File }) => {
    const form = new FormData();
    form.append("positionId", fields.positionId);
    form.append("manifesto", fields.manifesto);
    if (fields.proposer.trim()) form.append("proposer", fields.proposer.trim());
    if (fields.seconder.trim()) form.append("seconder", fields.seconder.trim());
    form.append("photo", fields.photo);
    return request<Answered>("/nominations", { method: "POST", body: form });
  },
  answer: (id: string, reply: "confirm" | "decline") => request<Answered>(`/nominations/${encodeURIComponent(id)}/${reply}`, { method: "POST" }),
  withdraw: (id: string) => request<Answered>(`/nominations/${encodeURIComponent(id)}/withdraw`, { method: "POST" }),
  list: (filters: NominationFilters) => {
    const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ""));
    return request<Nomination[]>(`/admin/nominations${query.size ? `?${query}` : ""}`);
  },
  approve: (id: string) => request<Answered>(`/admin/nominations/${encodeURIComponent(id)}/approve`, { method: "POST" }),
  reject: (id: string, reason: string) => request<Answered>(`/admin/nominations/${encodeURIComponent(id)}/reject`, { method: "POST", body: { reason } }),
};
