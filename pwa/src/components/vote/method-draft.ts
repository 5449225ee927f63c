/**
 * A ballot of several seats, a ranking or a referendum while the voter fills it in (the draft),
 * and what it casts. The rules the API applies (shared ballot-methods.ts methodBallot) cannot be
 * broken from here: marks are distinct by construction, at most `seats` for several seats, and
 * ranks stay 1..n without gaps.
 */
import type { BallotPosition, MyVote } from "@evoting/shared";
import type { ChoiceFields } from "../../lib/vote-body";

export interface MethodDraft {
  /** Candidate ids: the marks (several seats) or the ranking, first preference first. */
  marks: string[];
  /** 'yes' / 'no' (referendum) or 'abstain' where allowed; clears the marks. */
  choice: "yes" | "no" | "abstain" | null;
}

export const EMPTY_DRAFT: MethodDraft = { marks: [], choice: null };

/** A ballot method beyond the baseline's single choice (docs/product.md): it has its own controls and a review step. */
export const hasMethodBallot = (p: Pick<BallotPosition, "method">) => p.method === "multi" || p.method === "ranked" || p.method === "referendum";

export const draftOfVote = (vote: MyVote | null): MethodDraft =>
  vote ? { marks: vote.candidateIds ?? [], choice: vote.choice ?? null } : EMPTY_DRAFT;

const choiceNames = { yes: "Yes", no: "No", abstain: "Abstain" } as const;

/** What the draft casts, or null while it marks nothing. */
export function draftCast(position: BallotPosition, draft: MethodDraft): ChoiceFields | null {
  if (draft.choice) return { candidateId: "", candidateName: choiceNames[draft.choice], choice: draft.choice };
  if (draft.marks.length === 0) return null;
  const nameOf = (id: string) => position.candidates.find((c) => c._id === id)?.name ?? "";
  const candidateNames = draft.marks.map(nameOf);
  const marks = position.method === "ranked" ? { ranking: [...draft.marks] } : { candidateIds: [...draft.marks] };
  return { candidateId: "", candidateName: candidateNames[0], ...marks, candidateNames };
}

/** Marks or unmarks a candidate of a several-seat ballot; a mark past the seats is ignored. */
export function toggleMark(draft: MethodDraft, candidateId: string, seats: number): MethodDraft {
  if (draft.marks.includes(candidateId)) return { marks: draft.marks.filter((id) => id !== candidateId), choice: null };
  if (draft.marks.length >= seats) return draft;
  return { marks: [...draft.marks, candidateId], choice: null };
}

/**
 * Gives a candidate rank `rank` (1-based), or takes their rank away (null). The candidate is
 * taken out and put back at that place, so the others move up or down one and no rank is ever
 * held twice or skipped.
 */
export function setRank(draft: MethodDraft, candidateId: string, rank: number | null): MethodDraft {
  const rest = draft.marks.filter((id) => id !== candidateId);
  if (rank === null) return { marks: rest, choice: null };
  const at = Math.max(0, Math.min(rank - 1, rest.length));
  return { marks: [...rest.slice(0, at), candidateId, ...rest.slice(at)], choice: null };
}

/** '1st', '2nd', '3rd', '4th', ..., '11th', '12th', '13th', '21st'. */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th";
  return `${n}${suffix}`;
}
