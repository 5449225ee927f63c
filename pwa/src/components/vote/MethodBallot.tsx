import type { ReactNode } from "react";
import type { BallotPosition, Candidate } from "@evoting/shared";
import { cx } from "../../lib/cx";
import { Avatar } from "../ui/Avatar";
import { inputClass } from "../ui/Field";
import { ManifestoButton } from "./ManifestoButton";
import { MANIFESTO_INDENT } from "./BallotChoices";
import { ordinal, setRank, toggleMark, type MethodDraft } from "./method-draft";

interface MethodBallotProps {
  position: BallotPosition;
  headingId: string;
  draft: MethodDraft;
  disabled: boolean;
  onChange: (draft: MethodDraft) => void;
}

/** A choice's box: its border says whether it is chosen. */
const boxClass = (active: boolean, disabled: boolean) =>
  cx(
    "rounded-xl border transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600",
    active ? "border-indigo-600 bg-indigo-50" : "border-slate-200 bg-white",
    !disabled && "hover:border-indigo-400",
  );

/** A whole-row label (Abstain, Yes, No): its own box. */
const rowClass = (active: boolean, disabled: boolean) =>
  cx(boxClass(active, disabled), "flex items-center gap-3 p-3", disabled ? "cursor-not-allowed" : "cursor-pointer");

function CandidateName({ c }: { c: Candidate }) {
  return (
    <>
      <Avatar src={c.photo} name={c.name} className="size-10" decorative />
      <span className="min-w-0 break-words font-medium text-slate-900">{c.name}</span>
    </>
  );
}

/**
 * The choices of a several-seat, ranked or referendum position (docs/counting.md): checkboxes
 * up to the seats, a rank select per candidate (no dragging: keyboard and screen readers use the
 * native select), or Yes / No. 'Abstain' where the position allows it.
 */
export function MethodBallot(props: MethodBallotProps) {
  const { position, draft, disabled, onChange } = props;
  const abstaining = draft.choice === "abstain";
  return (
    <div className="space-y-3">
      {position.method === "multi" && <MultiChoices {...props} disabled={disabled || abstaining} />}
      {position.method === "ranked" && <RankedChoices {...props} disabled={disabled || abstaining} />}
      {position.method === "referendum" && <ReferendumChoices {...props} />}
      {position.allowAbstain && position.method !== "referendum" && (
        <label className={rowClass(abstaining, disabled)}>
          <input
            type="checkbox"
            checked={abstaining}
            disabled={disabled}
            onChange={(e) => onChange({ marks: [], choice: e.target.checked ? "abstain" : null })}
            className="size-4 accent-indigo-600"
          />
          <span className="font-medium text-slate-900">Abstain</span>
          <span className="text-sm text-slate-600">(choose nobody)</span>
        </label>
      )}
    </div>
  );
}

function MultiChoices({ position, headingId, draft, disabled, onChange }: MethodBallotProps) {
  const seats = position.seats ?? 1;
  const left = seats - draft.marks.length;
  return (
    <fieldset className="min-w-0" aria-labelledby={headingId} aria-describedby={`${headingId}-left`}>
      <legend className="mb-3 text-sm text-slate-600">
        Choose up to {seats} candidate{seats === 1 ? "" : "s"} for this position
      </legend>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {position.candidates.map((c) => {
          const marked = draft.marks.includes(c._id);
          const off = disabled || (!marked && left === 0);
          return (
            // The candidate's box holds their 'Read manifesto' too (BallotChoices does the same).
            <div key={c._id} className={boxClass(marked, off)} data-testid="ballot-choice">
              <label className={cx("flex items-center gap-3 p-3", off ? "cursor-not-allowed" : "cursor-pointer", off && !marked && "opacity-70")}>
                <input
                  type="checkbox"
                  checked={marked}
                  disabled={off}
                  onChange={() => onChange(toggleMark(draft, c._id, seats))}
                  className="size-4 accent-indigo-600"
                />
                <CandidateName c={c} />
              </label>
              {c.manifesto && <ManifestoButton name={c.name} manifesto={c.manifesto} className={MANIFESTO_INDENT} />}
            </div>
          );
        })}
      </div>
      <p id={`${headingId}-left`} aria-live="polite" className="mt-3 text-sm font-medium text-slate-700">
        {left === 0 ? `All ${seats} choices used: unmark one to choose another.` : `${left} of ${seats} choice${seats === 1 ? "" : "s"} left`}
      </p>
    </fieldset>
  );
}

function RankedChoices({ position, headingId, draft, disabled, onChange }: MethodBallotProps) {
  const count = position.candidates.length;
  const nameOf = (id: string) => position.candidates.find((c) => c._id === id)?.name ?? "";
  return (
    <fieldset className="min-w-0" aria-labelledby={headingId} aria-describedby={`${headingId}-ranking`}>
      <legend className="mb-3 text-sm text-slate-600">
        Rank the candidates in your order of preference (1st = your first choice). Rank as many as you wish.
      </legend>
      <ul className="grid grid-cols-1 gap-2">
        {position.candidates.map((c) => {
          const index = draft.marks.indexOf(c._id);
          const ranked = index >= 0;
          // Ranks stay 1..n: an unranked candidate may take any place up to one past the last.
          const places = Math.min(count, draft.marks.length + (ranked ? 0 : 1));
          return (
            // Every row alike: the name, then the rank box in one column down the card; 'Read
            // manifesto' under the name, so rows with one keep the rank box where the others have it.
            <li key={c._id} className={cx(boxClass(ranked, disabled), "p-3")} data-testid="ballot-choice">
              <div className="flex items-center gap-3">
                <div className="flex min-w-0 flex-1 items-center gap-3">
                  <CandidateName c={c} />
                </div>
                <div className="w-36 shrink-0">
                  <select
                    aria-label={`Rank for ${c.name}`}
                    className={cx(inputClass, "py-2")}
                    value={ranked ? String(index + 1) : ""}
                    disabled={disabled}
                    onChange={(e) => onChange(setRank(draft, c._id, e.target.value === "" ? null : Number(e.target.value)))}
                  >
                    <option value="">Not ranked</option>
                    {Array.from({ length: places }, (_, i) => (
                      <option key={i + 1} value={String(i + 1)}>
                        {ordinal(i + 1)} choice
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              {c.manifesto && <ManifestoButton name={c.name} manifesto={c.manifesto} className="-mb-1.5 ml-10" />}
            </li>
          );
        })}
      </ul>
      <p id={`${headingId}-ranking`} aria-live="polite" className="mt-3 text-sm text-slate-700">
        {draft.marks.length === 0 ? "No candidate ranked yet." : `Your ranking: ${draft.marks.map((id, i) => `${ordinal(i + 1)} ${nameOf(id)}`).join(", ")}`}
      </p>
    </fieldset>
  );
}

function ReferendumChoices({ position, headingId, draft, disabled, onChange }: MethodBallotProps) {
  const radio = (value: "yes" | "no" | "abstain", label: ReactNode) => (
    <label key={value} className={cx(rowClass(draft.choice === value, disabled), disabled && draft.choice !== value && "opacity-70")}>
      <input
        type="radio"
        name={`position-${position._id}`}
        value={value}
        checked={draft.choice === value}
        disabled={disabled}
        onChange={() => onChange({ marks: [], choice: value })}
        className="size-4 accent-indigo-600"
      />
      <span className="font-medium text-slate-900">{label}</span>
    </label>
  );
  return (
    <fieldset className="min-w-0" role="radiogroup" aria-labelledby={`${headingId} ${headingId}-question`}>
      <legend id={`${headingId}-question`} className="mb-3 text-base font-semibold text-slate-900">
        {position.question}
      </legend>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
        {radio("yes", "Yes")}
        {radio("no", "No")}
        {position.allowAbstain && radio("abstain", "Abstain")}
      </div>
    </fieldset>
  );
}

/** Exactly what the ballot will cast, shown before the final 'Cast Vote'. */
export function BallotReview({ position, draft, id }: { position: BallotPosition; draft: MethodDraft; id: string }) {
  const nameOf = (cid: string) => position.candidates.find((c) => c._id === cid)?.name ?? "";
  const seats = position.seats ?? 1;
  const unranked = position.candidates.length - draft.marks.length;
  return (
    <section aria-labelledby={id} className="space-y-2 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950">
      <h3 id={id} tabIndex={-1} className="font-semibold focus:outline-none">
        Review your vote
      </h3>
      {draft.choice === "abstain" ? (
        <p>You are abstaining: this ballot chooses nobody.</p>
      ) : position.method === "referendum" ? (
        <>
          <p>{position.question}</p>
          <p>
            Your answer: <strong>{draft.choice === "yes" ? "Yes" : "No"}</strong>
          </p>
        </>
      ) : position.method === "ranked" ? (
        <>
          <p>Your ranking:</p>
          <ol className="space-y-0.5">
            {draft.marks.map((cid, i) => (
              <li key={cid}>
                <strong>{ordinal(i + 1)}</strong> {nameOf(cid)}
              </li>
            ))}
          </ol>
          {unranked > 0 && <p>Candidates you did not rank get no preference from this ballot.</p>}
        </>
      ) : (
        <>
          <p>
            You are voting for {draft.marks.length} of {seats} seat{seats === 1 ? "" : "s"}:
          </p>
          <ul className="list-inside list-disc">
            {draft.marks.map((cid) => (
              <li key={cid}>{nameOf(cid)}</li>
            ))}
          </ul>
        </>
      )}
      <p>Your vote is final once cast.</p>
    </section>
  );
}
