import { cx } from "../../lib/cx";

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span role={label ? "status" : undefined} className="inline-flex items-center gap-2">
      <span
        aria-hidden="true"
        className={cx("inline-block size-5 animate-spin rounded-full border-2 border-current border-t-transparent", className)}
      />
      {label && <span className="sr-only">{label}</span>}
    </span>
  );
}

/** A centred loading or empty message inside a card or page. */
export function StateMessage({ children, busy }: { children: React.ReactNode; busy?: boolean }) {
  return (
    <div role="status" className="flex flex-col items-center justify-center gap-3 px-6 py-12 text-center text-slate-600">
      {busy && <Spinner className="size-6 text-indigo-600" />}
      <div>{children}</div>
    </div>
  );
}
