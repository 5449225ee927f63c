/**
 * The election's life (docs/lifecycle.md): declared elections and their archives (any
 * signed-in user), the current election's state, declaring it and starting the next (admins).
 * Online-only: nothing here is kept on the device. Query options: data/elections.ts.
 */
import type { CurrentElectionStatus, ElectionArchive, ElectionSummary, StartElectionInput } from "@evoting/shared";
import { request } from "./client";

export const electionsApi = {
  declared: () => request<ElectionSummary[]>("/elections"),
  archive: (id: number) => request<ElectionArchive>(`/elections/${id}`),
  current: () => request<CurrentElectionStatus>("/admin/elections/current"),
  close: () => request<{ message: string; closedAt: string; positions: string[] }>("/admin/election/close", { method: "POST" }),
  declare: () => request<{ message: string; election: ElectionSummary }>("/admin/election/declare", { method: "POST" }),
  start: (body: StartElectionInput) => request<{ message: string; election: ElectionSummary }>("/admin/elections", { method: "POST", body }),
};
