import { useState } from "react";
import { downloadCsv } from "../../api/accountability";
import { notifyError } from "../../lib/notify";
import { useOnline } from "../../hooks/use-online";
import { Button } from "../ui/Button";
import { Icon } from "../ui/Icon";

interface ExportProps {
  path: string;
  filename: string;
  failed: string;
  /** The button's words when it is not 'Export CSV' (a ranked position's BLT file). */
  label?: string;
}

/** 'Export CSV': downloads an export with the session's bearer; read-only, so observers get it too. */
export function ExportCsvButton({ path, filename, failed, label = "Export CSV" }: ExportProps) {
  const [busy, setBusy] = useState(false);
  const online = useOnline();
  const run = async () => {
    setBusy(true);
    try {
      await downloadCsv(path, filename);
    } catch (error) {
      notifyError(error, failed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" onClick={() => void run()} disabled={busy || !online} aria-busy={busy || undefined}>
      <Icon name="download" className="size-4" />
      {busy ? "Exporting..." : label}
    </Button>
  );
}
