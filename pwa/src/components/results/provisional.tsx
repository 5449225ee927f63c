/**
 * Results are provisional until the election is declared (`Results.provisional`, set by the API):
 * the figures may still change and nobody is elected yet, so every results screen says so once
 * and names who is ahead ('Leading', 'Yes ahead', 'Passing so far') rather than who won.
 * 'Elected', 'Passed' and 'Official' appear only from the declaration.
 */
import { createContext, useContext, type ReactNode } from "react";
import type { Results } from "@evoting/shared";

const ProvisionalContext = createContext(false);

export const isProvisional = (results: Pick<Results, "provisional">) => results.provisional === true;

/** Wraps a screen's results so each card below reads the same 'provisional' answer. */
export function ProvisionalResults({ results, children }: { results: Pick<Results, "provisional">; children: ReactNode }) {
  return <ProvisionalContext.Provider value={isProvisional(results)}>{children}</ProvisionalContext.Provider>;
}

export const useProvisional = () => useContext(ProvisionalContext);

/** The words of an outcome: final from the declaration, who is ahead before it. */
export function outcomeWord(kind: "elected" | "not-elected" | "passed" | "not-passed", provisional: boolean): string {
  if (!provisional) return { elected: "Elected", "not-elected": "Not elected", passed: "Passed", "not-passed": "Not passed" }[kind];
  return { elected: "Leading", "not-elected": "No ahead", passed: "Passing so far", "not-passed": "Not passing so far" }[kind];
}

/** Said once where figures are shown, until the declaration; with no vote cast there are none to qualify. */
export function ProvisionalNotice({ results }: { results: Pick<Results, "provisional" | "totalVotesCast"> }) {
  if (!isProvisional(results) || results.totalVotesCast === 0) return null;
  return (
    <p role="note" data-testid="provisional-notice" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
      <strong className="font-semibold">Provisional results.</strong> These figures may still change: nobody is elected until the results are declared.
    </p>
  );
}
