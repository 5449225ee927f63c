import { COUNTDOWN_REFRESH_MS, countdown, pad2 } from "@evoting/shared";
import { useNow } from "../../hooks/use-now";

interface CountdownTileProps {
  /** ISO instants; without a start the election is active until the end (docs/product.md, Rules). */
  start?: string;
  end: string;
}

const units = [
  ["days", "Days"],
  ["hours", "Hours"],
  ["minutes", "Minutes"],
  ["seconds", "Seconds"],
] as const;

export function CountdownTile({ start, end }: CountdownTileProps) {
  const now = useNow(COUNTDOWN_REFRESH_MS);
  const state = countdown(now, Date.parse(end), start ? Date.parse(start) : undefined);

  return (
    <div
      data-testid="countdown"
      data-phase={state.phase}
      className="rounded-2xl bg-white/10 px-5 py-4 text-white ring-1 ring-white/25 backdrop-blur"
    >
      {state.parts ? (
        <>
          <p className="text-center text-xs font-bold tracking-[0.2em] text-indigo-50">{state.label}</p>
          <div className="mt-2 flex items-start justify-center gap-2 sm:gap-3" aria-live="off">
            {units.map(([key, label], i) => (
              <div key={key} className="flex items-start gap-2 sm:gap-3">
                {i > 0 && (
                  <span aria-hidden="true" className="pt-1 text-2xl font-bold text-indigo-100">
                    :
                  </span>
                )}
                <div className="flex min-w-12 flex-col items-center">
                  <span className="font-mono text-3xl font-extrabold tabular-nums sm:text-4xl">{pad2(state.parts![key])}</span>
                  <span className="mt-1 text-[0.7rem] font-semibold uppercase tracking-wider text-indigo-50">{label}</span>
                </div>
              </div>
            ))}
          </div>
        </>
      ) : (
        <div className="flex flex-col items-center px-4 py-1 text-center">
          <span className="text-sm font-bold tracking-[0.3em] text-indigo-50">ELECTION</span>
          <span className="mt-1 text-3xl font-extrabold tracking-wider sm:text-4xl">ENDED</span>
        </div>
      )}
    </div>
  );
}
