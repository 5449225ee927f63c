/**
 * The voter roll's calls (docs/roll.md); their query options are in data/roll.ts. JSON calls go through
 * the one typed client (`request`); the import uploads with XMLHttpRequest, the only browser
 * API that reports upload progress. The export is a plain download (ExportCsvButton).
 */
import type { ApiError, RollReport, UpdateVoterInput, VoterListItem, VoterPage } from "@evoting/shared";
import { API_BASE, ApiRequestError, request } from "./client";
import { session } from "../auth/session";

export interface VoterFilters {
  query: string;
  group: string;
  voted: "" | "yes" | "no";
  page: number;
}

export const rollApi = {
  voters: (f: VoterFilters) => {
    const params = new URLSearchParams({ page: String(f.page) });
    if (f.query.trim()) params.set("query", f.query.trim());
    if (f.group.trim()) params.set("group", f.group.trim());
    if (f.voted) params.set("voted", f.voted);
    return request<VoterPage>(`/admin/voters?${params.toString()}`);
  },
  updateVoter: (id: string, body: UpdateVoterInput) =>
    request<VoterListItem & { message: string }>(`/admin/voters/${encodeURIComponent(id)}`, { method: "PATCH", body }),
  resetPassword: (id: string) => request<void>(`/admin/voters/${encodeURIComponent(id)}/reset-password`, { method: "POST" }),
  deleteVoter: (id: string) => request<void>(`/admin/voters/${encodeURIComponent(id)}`, { method: "DELETE" }),
  groups: () => request<{ groups: { name: string; voters: number }[] }>("/admin/voters/groups"),
};

export type UploadPhase = "uploading" | "applying";

/**
 * Sends the CSV file as multipart field `file`. `onProgress` gets the uploaded fraction (0-1),
 * then `applying` once every byte is sent and the server is checking or writing.
 */
export function uploadRoll(
  file: File,
  dryRun: boolean,
  onProgress: (phase: UploadPhase, fraction: number) => void,
): Promise<RollReport & { message?: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${API_BASE}/admin/voters/import?dryRun=${dryRun ? 1 : 0}`);
    const token = session.token();
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (e) => onProgress("uploading", e.lengthComputable && e.total > 0 ? e.loaded / e.total : 0);
    xhr.upload.onload = () => onProgress("applying", 1);
    xhr.onerror = () => reject(new ApiRequestError(0, "Network error", false));
    xhr.onload = () => {
      let body: Partial<ApiError> & Partial<RollReport> = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // Not JSON (a proxy's page): the status text stands in below.
      }
      if (xhr.status === 401 && token) session.clear();
      // A 400 with a report is the all-or-nothing refusal: the caller shows its errors.
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as RollReport);
      else if (xhr.status === 400 && Array.isArray(body.errors)) resolve(body as RollReport & { message?: string });
      else reject(new ApiRequestError(xhr.status, body.message || xhr.statusText, Boolean(body.message), body.issues));
    };
    const form = new FormData();
    form.append("file", file);
    xhr.send(form);
  });
}
