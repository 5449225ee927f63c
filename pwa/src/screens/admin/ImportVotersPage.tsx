import { useRef, useState, type FormEvent } from "react";
import { Link } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { MAX_ROLL_ROWS, ROLL_COLUMNS, messages, type RollReport } from "@evoting/shared";
import { queryKeys } from "../../data/query-keys";
import { uploadRoll, type UploadPhase } from "../../api/roll";
import { notifyError, notifySuccess } from "../../lib/notify";
import { useOnline } from "../../hooks/use-online";
import { useCanWriteAdmin } from "../../auth/use-session";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { FieldShell, inputClass } from "../../components/ui/Field";
import { PageHeader } from "../../components/ui/PageHeader";
import { ImportPreview } from "./voters/ImportPreview";
import { UploadProgress } from "./voters/UploadProgress";

type Busy = { kind: "check" | "apply"; phase: UploadPhase; fraction: number } | null;

export function ImportVotersPage() {
  const online = useOnline();
  const canWrite = useCanWriteAdmin();
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [checked, setChecked] = useState<{ report: RollReport; fileName: string } | null>(null);
  const [done, setDone] = useState<RollReport | null>(null);
  const [busy, setBusy] = useState<Busy>(null);

  async function send(kind: "check" | "apply") {
    if (!file) return;
    setBusy({ kind, phase: "uploading", fraction: 0 });
    try {
      const result = await uploadRoll(file, kind === "check", (phase, fraction) => setBusy({ kind, phase, fraction }));
      const clean = result.errors.length === 0;
      setChecked(kind === "apply" && clean ? null : { report: result, fileName: file.name });
      if (kind === "apply" && clean) {
        setDone(result);
        notifySuccess(messages.rollImportSuccess);
        void client.invalidateQueries({ queryKey: queryKeys.voters });
        void client.invalidateQueries({ queryKey: queryKeys.results });
      }
      // Done, or wrong: the file must be chosen again (the browser fires no change event when
      // the same, now corrected, file is picked a second time unless the input is emptied).
      if (!clean || kind === "apply") {
        setFile(null);
        if (input.current) input.current.value = "";
      }
    } catch (error) {
      notifyError(error, messages.rollImportFailed);
    } finally {
      setBusy(null);
    }
  }

  const check = (event: FormEvent) => {
    event.preventDefault();
    void send("check");
  };

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title="Import Voters"
        description="Load the whole voter roll from a CSV file. The file is checked first; nothing is imported until it has no errors."
        actions={<BackToAdminButton />}
      />
      {!canWrite ? (
        <Card className="p-6 text-slate-700">
          Observers can review the roll but not import it. See{" "}
          <Link to="/admin/voters" className="font-medium text-indigo-700 underline">
            Manage Voters
          </Link>
          .
        </Card>
      ) : (
        <Card>
          <form noValidate onSubmit={check} className="space-y-5 p-6">
            <NeedsNetwork online={online} />
            <FieldShell
              label="CSV File"
              hint={
                <>
                  A header row with <code>{ROLL_COLUMNS.join(", ")}</code> (email and groups optional; groups separated by{" "}
                  <code>;</code>, e.g. <code>300L;Software</code>). Dates of birth as YYYYMMDD. Up to {MAX_ROLL_ROWS.toLocaleString("en")} rows
                  or 5 MB.
                </>
              }
            >
              {({ id, describedBy }) => (
                <input
                  ref={input}
                  id={id}
                  type="file"
                  accept=".csv,text/csv"
                  aria-describedby={describedBy}
                  className={inputClass}
                  disabled={busy !== null}
                  onChange={(e) => {
                    setFile(e.target.files?.[0] ?? null);
                    setChecked(null);
                    setDone(null);
                  }}
                />
              )}
            </FieldShell>
            <Button type="submit" disabled={!file || busy !== null || !online}>
              {busy?.kind === "check" ? "Checking..." : "Check File"}
            </Button>
            {busy && (
              <UploadProgress phase={busy.phase} fraction={busy.fraction} workLabel={busy.kind === "check" ? "Checking file..." : "Importing voters..."} />
            )}
          </form>
        </Card>
      )}

      {checked && (
        <ImportPreview
          report={checked.report}
          fileName={checked.fileName}
          applying={busy?.kind === "apply"}
          onApply={canWrite && online && file ? () => void send("apply") : undefined}
        />
      )}

      {done && (
        <Card className="p-6" role="status">
          <p className="font-semibold text-slate-900">
            Imported {done.total} rows: {done.created} new, {done.updated} updated, {done.unchanged} unchanged.
          </p>
          <Link to="/admin/voters" className="mt-2 inline-block font-medium text-indigo-700 underline">
            Manage Voters
          </Link>
        </Card>
      )}
    </div>
  );
}
