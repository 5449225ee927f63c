/** The accountability calls' query keys and options (the calls: api/accountability.ts). */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { accountabilityApi, type AuditFilters } from "../api/accountability";

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
