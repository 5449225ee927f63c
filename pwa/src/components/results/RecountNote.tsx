import type { PositionResult } from "@evoting/shared";
import { canViewAdmin } from "@evoting/shared";
import { useSession } from "../../auth/use-session";
import { ExportCsvButton } from "../admin/ExportCsvButton";

/** The file name a ranked position's ballots download under, and that the recount command names. */
export const bltFilename = (result: PositionResult) => `${result.positionTitle.replace(/[^\w-]+/g, "-")}.blt`;

/**
 * How anyone can repeat a ranked position's count: its ballots as a BLT file (published with the
 * results to admins and observers) and the command that counts it (docs/counting.md).
 * `download`: with the download button, for a screen rather than the printed sheet.
 */
export function RecountNote({ result, download = false }: { result: PositionResult; download?: boolean }) {
  const role = useSession()?.user.role;
  const file = bltFilename(result);
  return (
    <div className="space-y-2" data-testid={`recount-${result.positionId}`}>
      <p className="text-sm text-slate-700">
        To recount: download this position's ballots (BLT) and run <code className="break-all rounded bg-slate-100 px-1">npm run recount -- {file}</code> in a copy of
        CSC E-Voting (add <code>--json</code> for the figures as JSON). Other STV programs that read BLT (OpenSTV, OpaVote, droop) count the same file.
      </p>
      {download && canViewAdmin(role) && (
        <ExportCsvButton path={`/admin/positions/${result.positionId}/ballots.blt`} filename={file} failed="Failed to download the ballots" label="Download ballots (BLT)" />
      )}
    </div>
  );
}
