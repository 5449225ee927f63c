import { useId } from "react";
import type { BallotMethod, Position } from "@evoting/shared";

/** Why the box cannot change, or null when it can. */
export function verifiableLockReason(method: BallotMethod, position?: Pick<Position, "belenios"> | null): string | null {
  if (position?.belenios && position.belenios.state !== "setup") return "Locked: this position stays verifiable.";
  if (method === "ranked") return "Ranked positions cannot be verifiable yet: Belenios counts ranked ballots with mixnets.";
  return null;
}

interface VerifiableFieldProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  method: BallotMethod;
  position?: Pick<Position, "belenios"> | null;
}

/**
 * Create/Edit Position's 'Verifiable ballot' (docs/verifiable.md). Off by default; a ranked
 * position cannot have it (the box is disabled and says why), nor can a locked one lose it.
 */
export function VerifiableField({ checked, onChange, method, position }: VerifiableFieldProps) {
  const id = useId();
  const reason = verifiableLockReason(method, position);
  return (
    <div className="flex items-start gap-3 text-sm">
      <input
        id={id}
        type="checkbox"
        name="verifiable"
        className="mt-0.5 size-4 accent-indigo-600"
        checked={checked && method !== "ranked"}
        disabled={reason !== null}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.checked)}
      />
      <div>
        <label htmlFor={id} className="font-medium text-slate-800">
          Verifiable ballot
        </label>
        <p id={`${id}-hint`} className="text-slate-600">
          {reason ??
            "Each ballot is encrypted on the voter's device and published, and anyone can check the count with Belenios. It needs trustees and voter credentials before its lock."}
        </p>
      </div>
    </div>
  );
}
