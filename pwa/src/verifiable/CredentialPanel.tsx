import { useEffect, useRef, useState } from "react";
import { normalizeCredential } from "@evoting/shared/belenios";
import { Button } from "../components/ui/Button";
import { FieldShell, inputClass } from "../components/ui/Field";
import { credentialInText, verifiableText } from "./messages";

interface CredentialPanelProps {
  /** The credential this device keeps, or null: then the field shows. */
  credential: string | null;
  typed: string;
  onType: (value: string) => void;
  error: string | null;
  encrypting: boolean;
  disabled: boolean;
  /** Shows the field to type another credential. */
  onChange: () => void;
  /** While another is being typed: back to the kept one. */
  onKeep?: () => void;
  inputRef?: React.Ref<HTMLInputElement>;
  /** The field's hint, where the device does not keep the credential (a polling station's booth). */
  hint?: string;
}

/** The BarcodeDetector API where the browser has it (Chromium on Android and desktop, not Firefox or Safari yet). */
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type BarcodeDetectorCtor = new (options: { formats: string[] }) => BarcodeDetectorLike;
const barcodeDetector = (): BarcodeDetectorCtor | null =>
  typeof window !== "undefined" && "BarcodeDetector" in window ? (window as unknown as { BarcodeDetector: BarcodeDetectorCtor }).BarcodeDetector : null;

/** A verifiable position's credential on its card: the field (typed or scanned) until the device keeps one. */
export function CredentialPanel({ credential, typed, onType, error, encrypting, disabled, onChange, onKeep, inputRef, hint = verifiableText.credentialHint }: CredentialPanelProps) {
  const [scanning, setScanning] = useState(false);
  const [scanError, setScanError] = useState<string | null>(null);
  const canScan = barcodeDetector() !== null;

  if (credential) {
    return (
      <div className="space-y-2 rounded-lg bg-indigo-50 px-3 py-2.5 text-sm text-indigo-950" data-testid="credential-saved">
        <p>{verifiableText.credentialSaved}</p>
        {encrypting && <p className="font-medium" role="status">{verifiableText.encrypting}</p>}
        {error && <p className="font-medium text-red-700" role="alert">{error}</p>}
        {!disabled && (
          <button type="button" className="focus-ring rounded text-sm font-medium text-indigo-800 underline" onClick={onChange}>
            {verifiableText.changeCredential}
          </button>
        )}
      </div>
    );
  }
  if (disabled) return null;
  return (
    <div className="space-y-2">
      <FieldShell label={verifiableText.credentialLabel} hint={hint} error={error ?? scanError ?? undefined}>
        {(ids) => (
          <input
            ref={inputRef}
            id={ids.id}
            name="credential"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            aria-describedby={ids.describedBy}
            aria-invalid={ids.invalid || undefined}
            className={`${inputClass} font-mono tracking-wider`}
            value={typed}
            onChange={(e) => {
              setScanError(null);
              onType(e.target.value);
            }}
          />
        )}
      </FieldShell>
      <div className="flex flex-wrap gap-2">
        {canScan && !scanning && (
          <Button type="button" variant="secondary" size="sm" onClick={() => setScanning(true)}>
            {verifiableText.scan}
          </Button>
        )}
        {onKeep && (
          <Button type="button" variant="secondary" size="sm" onClick={onKeep}>
            {verifiableText.keepCredential}
          </Button>
        )}
      </div>
      {scanning && (
        <QrScanner
          onFound={(value) => {
            setScanning(false);
            const found = credentialInText(value, normalizeCredential);
            if (found) onType(found);
            else setScanError(verifiableText.scanNotCredential);
          }}
          onFail={() => {
            setScanning(false);
            setScanError(verifiableText.scanFailed);
          }}
          onCancel={() => setScanning(false)}
        />
      )}
      {encrypting && <p className="text-sm font-medium text-indigo-900" role="status">{verifiableText.encrypting}</p>}
    </div>
  );
}

/** The camera's picture, read for a QR code a few times a second until one is found. */
function QrScanner({ onFound, onFail, onCancel }: { onFound: (value: string) => void; onFail: () => void; onCancel: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const callbacks = useRef({ onFound, onFail });
  callbacks.current = { onFound, onFail };
  useEffect(() => {
    const Detector = barcodeDetector();
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const stop = () => {
      live = false;
      clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
    if (!Detector || !navigator.mediaDevices?.getUserMedia) {
      callbacks.current.onFail();
      return stop;
    }
    const detector = new Detector({ formats: ["qr_code"] });
    const look = async () => {
      if (!live || !video.current) return;
      try {
        const codes = await detector.detect(video.current);
        if (live && codes[0]) {
          stop();
          callbacks.current.onFound(codes[0].rawValue);
          return;
        }
      } catch {
        // A frame that is not ready yet: try the next one.
      }
      if (live) timer = setTimeout(() => void look(), 250);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "environment" } })
      .then(async (s) => {
        if (!live) return s.getTracks().forEach((t) => t.stop());
        stream = s;
        if (video.current) {
          video.current.srcObject = s;
          await video.current.play();
        }
        void look();
      })
      .catch(() => {
        if (live) callbacks.current.onFail();
      });
    return stop;
  }, []);
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 p-3">
      <p className="text-sm text-slate-700">{verifiableText.scanHelp}</p>
      <video ref={video} muted playsInline className="aspect-square w-full max-w-xs rounded bg-slate-900" aria-label="Camera" />
      <Button type="button" variant="secondary" size="sm" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
