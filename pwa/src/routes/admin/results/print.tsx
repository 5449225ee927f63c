import { createFileRoute, redirect } from "@tanstack/react-router";
import { requireAuth } from "../../../auth/guards";
import { session } from "../../../auth/session";
import { ResultsSheetPage } from "../../../screens/admin/ResultsSheetPage";

/** The printable results sheet: outside the signed-in layout (no navigation to print); admins and observers. */
export const Route = createFileRoute("/admin/results/print")({
  beforeLoad: () => {
    requireAuth();
    if (!session.canViewAdmin()) throw redirect({ to: "/", replace: true });
  },
  component: ResultsSheetPage,
});
