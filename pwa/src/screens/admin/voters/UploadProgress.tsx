import type { UploadPhase } from "../../../api/roll";

interface UploadProgressProps {
  phase: UploadPhase;
  /** Uploaded fraction, 0-1. */
  fraction: number;
  /** What the server does once the file is sent: "Checking file..." or "Importing voters...". */
  workLabel: string;
}

/**
 * The upload's real progress (bytes sent), then an indeterminate bar while the server checks or
 * applies the file: it answers in one go, so there is no honest percentage for that part.
 */
export function UploadProgress({ phase, fraction, workLabel }: UploadProgressProps) {
  const uploading = phase === "uploading";
  const percent = Math.round(fraction * 100);
  const label = uploading ? `Uploading file... ${percent}%` : workLabel;
  return (
    <div className="space-y-2">
      <div
        role="progressbar"
        aria-label={uploading ? "Upload progress" : workLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={uploading ? percent : undefined}
        aria-busy={!uploading || undefined}
        className="h-2.5 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={`h-full rounded-full bg-indigo-600 transition-[width] ${uploading ? "" : "w-1/3 animate-pulse"}`}
          style={uploading ? { width: `${percent}%` } : undefined}
        />
      </div>
      <p aria-live="polite" className="text-sm text-slate-700">
        {label}
      </p>
    </div>
  );
}
