/**
 * The printable sheet of credential slips: name, matriculation number, credential and its QR
 * code (what a voter's phone scans). The QR code library is loaded here, on this page only,
 * so no voter's device ever downloads it.
 */
import { useEffect, useState } from "react";
import type { Slip } from "./credential-run";

type QrCodes = Map<string, string>;

async function drawQrCodes(slips: readonly Slip[], onProgress: (done: number) => void): Promise<QrCodes> {
  const { toString } = await import("qrcode");
  const codes: QrCodes = new Map();
  let sliceEnd = performance.now() + 25;
  for (const [i, s] of slips.entries()) {
    const svg = await toString(s.credential, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
    codes.set(s.credential, `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    if (performance.now() >= sliceEnd) {
      onProgress(i + 1);
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceEnd = performance.now() + 25;
    }
  }
  return codes;
}

export function CredentialSlips({ slips, title }: { slips: readonly Slip[]; title: string }) {
  const [codes, setCodes] = useState<QrCodes | null>(null);
  const [drawn, setDrawn] = useState(0);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setCodes(null);
    drawQrCodes(slips, (n) => live && setDrawn(n)).then(
      (c) => live && setCodes(c),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [slips]);
  return (
    <div id="credential-slips">
      {codes === null && !failed && (
        <p role="status" className="px-5 py-3 text-sm text-slate-600 print:hidden">
          Drawing QR codes: {drawn} of {slips.length}...
        </p>
      )}
      {failed && (
        <p role="alert" className="px-5 py-3 text-sm text-amber-900 print:hidden">
          The QR codes could not be drawn: the slips show the credentials as text only.
        </p>
      )}
      <ul aria-label="Credential slips" className="grid gap-3 p-5 sm:grid-cols-2 print:grid-cols-2 print:gap-0 print:p-0">
        {slips.map((s) => (
          <li key={s.matricNumber} className="flex break-inside-avoid items-center gap-4 rounded-xl border border-dashed border-slate-400 p-4 text-sm print:rounded-none">
            {codes?.get(s.credential) ? (
              <img src={codes.get(s.credential)} alt={`QR code of ${s.name}'s credential`} className="size-28 shrink-0" />
            ) : (
              <span aria-hidden="true" className="size-28 shrink-0 rounded bg-slate-100" />
            )}
            <div className="min-w-0">
              <p className="text-xs uppercase tracking-wide text-slate-600">{title}</p>
              <p className="font-semibold text-slate-900">{s.name}</p>
              <p className="text-slate-700">{s.matricNumber}</p>
              <p className="mt-2 text-xs text-slate-600">Your voting credential</p>
              <p className="font-mono text-base font-semibold tracking-wide text-slate-900" data-testid="slip-credential">
                {s.credential}
              </p>
              <p className="mt-1 text-xs text-slate-600">For: {s.positions.join(", ")}. Keep it secret: whoever has it can vote in your name.</p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
