import type { RollReport } from "@evoting/shared";
import { Button } from "../../../components/ui/Button";
import { Card, CardHeader } from "../../../components/ui/Card";

interface ImportPreviewProps {
  report: RollReport;
  fileName: string;
  /** Absent for observers and while offline: the import button is not offered. */
  onApply?: () => void;
  applying: boolean;
}

const tiles = (r: RollReport) => [
  { label: "Rows", value: r.total },
  { label: "New voters", value: r.created },
  { label: "Updated", value: r.updated },
  { label: "Unchanged", value: r.unchanged },
];

/** What a checked file would do: counts, then every error with its line and column, or the button to apply it. */
export function ImportPreview({ report, fileName, onApply, applying }: ImportPreviewProps) {
  const changes = report.created + report.updated;
  const hasErrors = report.errors.length > 0;
  return (
    <Card>
      <CardHeader title="Preview" description={`${fileName}: checked, nothing imported yet.`} />
      <div className="space-y-5 p-5">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {tiles(report).map((t) => (
            <div key={t.label} className="rounded-xl bg-slate-50 px-4 py-3">
              <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{t.label}</dt>
              <dd className="mt-1 text-2xl font-bold tabular-nums text-slate-900">{t.value}</dd>
            </div>
          ))}
        </dl>

        {hasErrors ? (
          <div>
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
              {report.errors.length === 1 ? "1 error" : `${report.errors.length} errors`} found. Nothing will be imported until the file is
              fixed: correct it and choose it again.
            </p>
            <div className="mt-3 max-h-96 overflow-auto rounded-lg border border-slate-200">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Errors in the file</caption>
                <thead className="sticky top-0 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
                  <tr>
                    <th scope="col" className="px-4 py-2">Line</th>
                    <th scope="col" className="px-4 py-2">Column</th>
                    <th scope="col" className="px-4 py-2">Message</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {report.errors.map((e, i) => (
                    <tr key={`${e.line}-${e.column}-${i}`}>
                      <td className="px-4 py-2 tabular-nums">{e.line}</td>
                      <td className="px-4 py-2 font-mono text-xs">{e.column || "—"}</td>
                      <td className="px-4 py-2 text-red-800">{e.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        ) : changes === 0 ? (
          <p role="status" className="text-sm text-slate-700">
            Nothing to import: the roll already matches this file.
          </p>
        ) : (
          onApply && (
            <Button size="lg" onClick={onApply} disabled={applying}>
              {applying ? "Importing..." : `Import ${changes} ${changes === 1 ? "voter" : "voters"}`}
            </Button>
          )
        )}
      </div>
    </Card>
  );
}
