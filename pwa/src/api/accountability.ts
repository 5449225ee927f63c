/**
 * Accountability calls (their query options: data/accountability.ts): the audit log, the results sheet and turnout
 * (admins and observers), receipts (any signed-in user), and CSV downloads. Online-only: none
 * of these are kept on the device.
 */
import type { AuditPage, AuditVerification, ElectionSettings, ReceiptList, ResultsSheet, TurnoutReport } from "@evoting/shared";
import { request, requestBlob } from "./client";
import { saveFile } from "../lib/save-file";

export interface AuditFilters {
  action?: string;
  actor?: string;
  page: number;
}

const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : "";
};

export const accountabilityApi = {
  audit: (f: AuditFilters) => request<AuditPage>(`/admin/audit${query({ action: f.action, actor: f.actor, page: f.page })}`),
  auditVerify: () => request<AuditVerification>("/admin/audit/verify"),
  resultsSheet: () => request<ResultsSheet>("/admin/results/sheet"),
  turnout: () => request<TurnoutReport>("/admin/turnout"),
  receipts: (positionId: string) => request<ReceiptList>(`/vote/receipts${query({ positionId })}`),
  election: () => request<ElectionSettings>("/election"),
};

/** Fetches a CSV export with the session's bearer and hands it to the browser as a download. */
export async function downloadCsv(path: string, filename: string): Promise<void> {
  saveFile(await requestBlob(path), filename);
}
