/** A counted vote's receipt code: what the voter looks for in Counted Ballots once the position closes. */
export function ReceiptCode({ code }: { code: string }) {
  return (
    <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-800" data-testid="receipt">
      Your receipt: <code className="font-mono text-base font-semibold tracking-wider text-slate-900">{code}</code>
      <span className="block text-xs text-slate-600">Find it in Counted Ballots once voting for this position closes. It does not show your choice.</span>
    </p>
  );
}
