import { Link } from "@tanstack/react-router";
import { canViewAdmin } from "@evoting/shared";
import { useSession } from "../../auth/use-session";
import { buttonClass } from "../ui/Button";
import { Icon } from "../ui/Icon";
import { ExportCsvButton } from "../admin/ExportCsvButton";

/** The results page's 'Export CSV' and printable sheet, for admins and observers only. */
export function ResultsExportActions() {
  const role = useSession()?.user.role;
  if (!canViewAdmin(role)) return null;
  return (
    <>
      <ExportCsvButton path="/admin/results.csv" filename="results.csv" failed="Failed to export the results" />
      <Link to="/admin/results/print" className={buttonClass("secondary")}>
        <Icon name="receipt" className="size-4" />
        Print Results
      </Link>
    </>
  );
}
