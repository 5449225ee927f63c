import { type BallotPosition, type Candidate, type MyVote } from "@evoting/shared";
import { cx } from "../../lib/cx";
import { Avatar } from "../ui/Avatar";
import { ManifestoButton } from "./ManifestoButton";

/** 'Read manifesto' under its candidate's name, inside their box (past the radio and the photo). */
export const MANIFESTO_INDENT = "-mt-2 mb-1.5 ml-20";

/** A radio's value: a candidate id, or one of the choices that name no candidate. */
export const NO = "choice:no";
export const ABSTAIN = "choice:abstain";

/** The radio value a recorded vote checks. */
export const valueOfVote = (vote: MyVote) => (vote.choice === "no" ? NO : vote.choice === "abstain" ? ABSTAIN : vote.candidateId);

/** What a radio value casts. */
export function castOf(value: string, position: BallotPosition): { candidateId: string; candidateName: string; choice?: "no" | "abstain" } {
  if (value === NO) return { candidateId: "", candidateName: "No", choice: "no" };
  if (value === ABSTAIN) return { candidateId: "", candidateName: "Abstain", choice: "abstain" };
  return { candidateId: value, candidateName: position.candidates.find((c) => c._id === value)?.name ?? "" };
}

interface BallotChoicesProps {
  position: BallotPosition;
  headingId: string;
  checked: string | null;
  disabled: boolean;
  onChoose: (value: string) => void;
}

/**
 * The card's choices: one radio per candidate (docs/product.md, also for a lone candidate); a Yes/No
 * ballot (one candidate and the election's setting 'yes-no': the API's `yesNo`, decided by
 * shared election-rules.ts isYesNoBallot) shows the candidate with 'Yes' and 'No'; and
 * 'Abstain' where the position allows it.
 */
export function BallotChoices({ position, headingId, checked, disabled, onChoose }: BallotChoicesProps) {
  const unopposed = position.yesNo === true && position.candidates.length === 1;
  const sole = position.candidates[0];
  const boxClass = (value: string) =>
    cx(
      "rounded-xl border transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600",
      checked === value ? "border-indigo-600 bg-indigo-50" : "border-slate-200 bg-white",
      !disabled && "hover:border-indigo-400",
    );
  // `boxed`: the label draws its own box; a candidate's label sits inside a box shared with its 'Read manifesto'.
  const radio = (value: string, label: React.ReactNode, key = value, boxed = true) => (
    <label
      key={key}
      className={cx(
        "flex items-center gap-3 p-3",
        boxed && boxClass(value),
        disabled ? "cursor-not-allowed" : "cursor-pointer",
        disabled && checked !== value && "opacity-70",
      )}
    >
      <input
        type="radio"
        name={`position-${position._id}`}
        value={value}
        checked={checked === value}
        disabled={disabled}
        onChange={() => onChoose(value)}
        className="size-4 accent-indigo-600"
      />
      {label}
    </label>
  );
  const candidateLabel = (c: Candidate) => (
    <>
      <Avatar src={c.photo} name={c.name} className="size-10" decorative />
      <span className="min-w-0 break-words font-medium text-slate-900">{c.name}</span>
    </>
  );

  return (
    // Each radio is disabled, not the fieldset: 'Read manifesto' stays open before a position
    // opens and after the vote.
    <fieldset className="min-w-0" role="radiogroup" aria-labelledby={headingId} aria-disabled={disabled || undefined}>
      <legend className="mb-3 text-sm text-slate-600">
        {unopposed ? `${sole.name} is the only candidate: vote Yes or No` : "Select one candidate for this position"}
      </legend>
      {unopposed && (
        <div className="mb-3 flex items-center gap-3 rounded-xl bg-slate-50 p-3">
          {candidateLabel(sole)}
          {sole.manifesto && <ManifestoButton name={sole.name} manifesto={sole.manifesto} />}
        </div>
      )}
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {unopposed
          ? [radio(sole._id, <span className="font-medium text-slate-900">Yes</span>), radio(NO, <span className="font-medium text-slate-900">No</span>)]
          : position.candidates.map((c) => (
              // One box per candidate, holding their 'Read manifesto' under their name: between two
              // boxes it was unclear whose manifesto it opened.
              <div key={c._id} className={boxClass(c._id)} data-testid="ballot-choice">
                {radio(c._id, candidateLabel(c), c._id, false)}
                {c.manifesto && <ManifestoButton name={c.name} manifesto={c.manifesto} className={MANIFESTO_INDENT} />}
              </div>
            ))}
        {position.allowAbstain && radio(ABSTAIN, <span className="font-medium text-slate-900">Abstain</span>)}
      </div>
    </fieldset>
  );
}
