import { createFileRoute } from "@tanstack/react-router";
import { AuditLogPage } from "../../../screens/admin/AuditLogPage";

export const Route = createFileRoute("/_auth/admin/audit")({
  component: AuditLogPage,
});
