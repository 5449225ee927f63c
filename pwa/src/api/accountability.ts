/**
 * Accountability calls and queries: the audit log, the results sheet and turnout
 * (admins and observers), receipts (any signed-in user), and CSV downloads. Online-only: none
 * of these are kept on the device.
 */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
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

export const accountabilityKeys = {
  audit: (f: AuditFilters) => ["admin", "audit", f] as const,
  auditVerify: ["admin", "audit", "verify"] as const,
  resultsSheet: ["admin", "results-sheet"] as const,
  turnout: ["admin", "turnout"] as const,
  receipts: (positionId: string) => ["vote", "receipts", positionId] as const,
  election: ["election"] as const,
};

export const auditQuery = (f: AuditFilters) =>
  queryOptions({ queryKey: accountabilityKeys.audit(f), queryFn: () => accountabilityApi.audit(f), placeholderData: keepPreviousData });
/** A whole-chain walk on the server: at most once a minute, not on every focus. */
export const auditVerifyQuery = () =>
  queryOptions({ queryKey: accountabilityKeys.auditVerify, queryFn: accountabilityApi.auditVerify, staleTime: 60_000, refetchOnWindowFocus: false });
export const resultsSheetQuery = () =>
  queryOptions({ queryKey: accountabilityKeys.resultsSheet, queryFn: accountabilityApi.resultsSheet, staleTime: Infinity });
export const turnoutQuery = () => queryOptions({ queryKey: accountabilityKeys.turnout, queryFn: accountabilityApi.turnout, refetchInterval: 60_000 });
export const receiptsQuery = (positionId: string) =>
  queryOptions({ queryKey: accountabilityKeys.receipts(positionId), queryFn: () => accountabilityApi.receipts(positionId), retry: false });
/** The election's title and window; null when the server has no settings to give. */
export const electionQuery = () =>
  queryOptions({ queryKey: accountabilityKeys.election, queryFn: () => accountabilityApi.election().catch(() => null), staleTime: 60_000 });

/** Fetches a CSV export with the session's bearer and hands it to the browser as a download. */
export async function downloadCsv(path: string, filename: string): Promise<void> {
  saveFile(await requestBlob(path), filename);
}
