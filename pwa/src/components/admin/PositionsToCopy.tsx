import { useId } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import type { Position } from "@evoting/shared";
import { methodSummary } from "../../lib/ballot-method";
import { Button } from "../ui/Button";
import { StateMessage } from "../ui/Spinner";

interface PositionsToCopyProps {
  positions: UseQueryResult<Position[]>;
  /** Positions left out: anything else is copied, so every position is ticked until the admin unticks it. */
  unticked: ReadonlySet<string>;
  onChange: (unticked: ReadonlySet<string>) => void;
  previousTitle: string;
  error?: string;
}

/**
 * Which of the last election's positions a new election copies: every one by default; a
 * by-election keeps only the positions being filled.
 */
export function PositionsToCopy({ positions, unticked, onChange, previousTitle, error }: PositionsToCopyProps) {
  const id = useId();
  const list = positions.data ?? [];
  const chosen = list.filter((p) => !unticked.has(p._id)).length;

  const toggle = (positionId: string, on: boolean) => {
    const next = new Set(unticked);
    if (on) next.delete(positionId);
    else next.add(positionId);
    onChange(next);
  };

  if (positions.isPending) return <StateMessage busy>Loading positions...</StateMessage>;
  // Nothing to choose from: submitting copies every position, as without a choice.
  if (positions.isError) return <StateMessage>Failed to load the positions of {previousTitle}: all of them will be copied.</StateMessage>;
  if (list.length === 0) return <StateMessage>{previousTitle} has no positions to copy.</StateMessage>;

  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4 text-sm text-slate-800" aria-describedby={`${id}-count${error ? ` ${id}-error` : ""}`}>
      <legend className="px-1 font-medium">Positions to copy</legend>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" size="sm" onClick={() => onChange(new Set())}>
          Select all
        </Button>
        <Button variant="secondary" size="sm" onClick={() => onChange(new Set(list.map((p) => p._id)))}>
          Clear
        </Button>
        <p id={`${id}-count`} aria-live="polite" className="text-slate-600">
          {chosen} of {list.length} selected
        </p>
      </div>
      <ul className="space-y-2">
        {list.map((p) => (
          <li key={p._id} className="flex items-start gap-3">
            <input
              id={`${id}-${p._id}`}
              type="checkbox"
              className="mt-1 size-4"
              aria-describedby={`${id}-${p._id}-method`}
              checked={!unticked.has(p._id)}
              onChange={(e) => toggle(p._id, e.target.checked)}
            />
            <div>
              <label htmlFor={`${id}-${p._id}`} className="font-medium">
                {p.title}
              </label>
              <p id={`${id}-${p._id}-method`} className="text-slate-600">
                {methodSummary(p)}
              </p>
            </div>
          </li>
        ))}
      </ul>
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** What the request carries: nothing when every position is copied (the old call), else the chosen ids. */
export function chosenPositionIds(positions: readonly Position[] | undefined, unticked: ReadonlySet<string>): string[] | undefined {
  if (!positions || !positions.some((p) => unticked.has(p._id))) return undefined;
  return positions.filter((p) => !unticked.has(p._id)).map((p) => p._id);
}
