import { createFileRoute } from "@tanstack/react-router";
import { auditSearch } from "../../../data/list-search";
import { AuditLogPage } from "../../../screens/admin/AuditLogPage";

export const Route = createFileRoute("/_auth/admin/audit")({
  validateSearch: auditSearch,
  component: AuditLogPage,
});
