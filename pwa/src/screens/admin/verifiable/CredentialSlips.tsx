/**
 * The printable sheet of credential slips: name, matriculation number, credential and its QR
 * code (what a voter's phone scans). The sheet grows a few dozen slips at a time, their QR codes
 * drawn off the page (credential-worker.ts): ten thousand slips at once would hold the tab for
 * many seconds. The QR code library is in that worker only, so no voter's device downloads it.
 */
import { memo, useEffect, useState } from "react";
import { formatInteger } from "../../../lib/format";
import type { Slip } from "./credential-run";

/** Slips added to the sheet per step: each step is a short task, and the page paints between. */
export const SLIPS_PER_STEP = 50;

interface Step {
  start: number;
  slips: readonly Slip[];
  /** Each slip's QR code, or null when the codes could not be drawn. */
  codes: readonly (string | null)[];
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function CredentialSlips({
  slips,
  title,
  drawQrCodes,
  onDrawn,
}: {
  slips: readonly Slip[];
  title: string;
  /** The QR codes of these credentials, in order (the page's worker). Must keep its identity. */
  drawQrCodes: (credentials: string[]) => Promise<string[]>;
  /** How many slips are on the sheet so far. */
  onDrawn?: (drawn: number) => void;
}) {
  const [steps, setSteps] = useState<Step[]>([]);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    setSteps([]);
    setFailed(false);
    onDrawn?.(0);
    const parts: Slip[][] = [];
    for (let start = 0; start < slips.length; start += SLIPS_PER_STEP) parts.push(slips.slice(start, start + SLIPS_PER_STEP));
    let drawing = true;
    const codesOf = (part: Slip[]): Promise<(string | null)[]> =>
      drawing
        ? drawQrCodes(part.map((s) => s.credential)).catch(() => {
            drawing = false;
            if (live) setFailed(true);
            return part.map(() => null);
          })
        : Promise.resolve(part.map(() => null));
    void (async () => {
      // The worker draws the next step's codes while the page adds this one.
      let next = parts.length > 0 ? codesOf(parts[0]) : null;
      for (let i = 0; i < parts.length && live; i++) {
        const codes = await next!;
        next = i + 1 < parts.length ? codesOf(parts[i + 1]) : null;
        if (!live) return;
        const step: Step = { start: i * SLIPS_PER_STEP, slips: parts[i], codes: drawing ? codes : parts[i].map(() => null) };
        setSteps((prev) => [...prev, step]);
        onDrawn?.(Math.min(slips.length, (i + 1) * SLIPS_PER_STEP));
        await nextTurn();
      }
    })();
    return () => {
      live = false;
    };
  }, [slips, drawQrCodes, onDrawn]);

  const drawn = steps.reduce((n, s) => n + s.slips.length, 0);
  const complete = drawn === slips.length;
  return (
    <div id="credential-slips">
      <p role="status" className="sr-only">
        {complete ? `All ${formatInteger(slips.length)} slips are drawn.` : "Drawing the slips..."}
      </p>
      {!complete && (
        <div className="space-y-1 px-5 py-3 text-sm text-slate-600 print:hidden">
          <p>
            Drawing slips: {formatInteger(drawn)} of {formatInteger(slips.length)}. 'Print slips' is ready once all are drawn.
          </p>
          <progress className="h-2 w-full accent-indigo-600" max={Math.max(1, slips.length)} value={drawn} aria-label="Drawing slips" />
        </div>
      )}
      {!complete && (
        <p className="hidden font-semibold print:block">
          Only {formatInteger(drawn)} of {formatInteger(slips.length)} slips were drawn when this sheet was printed: wait until all are drawn, then print again.
        </p>
      )}
      {failed && (
        <p role="alert" className="px-5 py-3 text-sm text-amber-900 print:hidden">
          The QR codes could not be drawn: the slips show the credentials as text only.
        </p>
      )}
      <div role="list" aria-label="Credential slips" className="space-y-3 p-5 print:space-y-0 print:p-0">
        {steps.map((step) => (
          <SlipStep key={step.start} step={step} title={title} />
        ))}
      </div>
    </div>
  );
}

/**
 * One step's slips. Drawn once (memo), and laid out only near the screen (content-visibility):
 * the sheet's length does not slow the next step. Printing lays out every one.
 */
const SlipStep = memo(function SlipStep({ step, title }: { step: Step; title: string }) {
  return (
    <div
      role="none"
      className="grid gap-3 [contain-intrinsic-size:auto_4000px] [content-visibility:auto] sm:grid-cols-2 print:grid-cols-2 print:gap-0 print:[content-visibility:visible]"
    >
      {step.slips.map((s, i) => (
        <div
          role="listitem"
          key={s.matricNumber}
          className="flex break-inside-avoid items-center gap-4 rounded-xl border border-dashed border-slate-400 p-4 text-sm print:rounded-none"
        >
          {step.codes[i] ? (
            <img src={step.codes[i]!} alt={`QR code of ${s.name}'s credential`} className="size-28 shrink-0 [image-rendering:pixelated]" />
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
        </div>
      ))}
    </div>
  );
});
