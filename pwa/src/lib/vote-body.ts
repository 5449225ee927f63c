/**
 * A ballot's choice as every layer of the PWA carries it (the card, the cast, the outbox, the
 * station), and the one place it becomes a request body and a recorded vote. The baseline's single
 * choice is a candidate id; the ballot methods (docs/counting.md) add several marks, a
 * ranking and a referendum's 'yes'.
 */
import type { BallotMethod, MyVote } from "@evoting/shared";

export interface ChoiceFields {
  /** The candidate of a single choice; '' when the ballot names none this way. */
  candidateId: string;
  /** How the choice reads: the candidate's name, 'No', 'Abstain', 'Yes', or the first mark. */
  candidateName: string;
  /** A choice with no candidate: 'no' / 'abstain', or a referendum's 'yes'. */
  choice?: "yes" | "no" | "abstain";
  /** Several seats: the candidates marked. */
  candidateIds?: string[];
  /** Ranked: candidate ids, first preference first. */
  ranking?: string[];
  /** The names of `candidateIds` or `ranking`, in the same order. */
  candidateNames?: string[];
  /** A verifiable position: the Belenios ballot encrypted on this device, sent instead of the choice. */
  ballot?: string;
  /** That ballot's tracker (its SHA-256, as the server answers it). */
  tracker?: string;
}

/** The choice fields of POST /vote: exactly one of them. */
export function choiceBody(c: Pick<ChoiceFields, "candidateId" | "choice" | "candidateIds" | "ranking" | "ballot">) {
  if (c.ballot) return { ballot: c.ballot };
  if (c.choice) return { choice: c.choice };
  if (c.ranking) return { ranking: c.ranking };
  if (c.candidateIds) return { candidateIds: c.candidateIds };
  return { candidateId: c.candidateId };
}

/** Only the choice fields of a larger object (an outbox item, a cast's variables), none undefined. */
export function choiceFields(c: ChoiceFields): ChoiceFields {
  return {
    candidateId: c.candidateId,
    candidateName: c.candidateName,
    ...(c.choice ? { choice: c.choice } : {}),
    ...(c.candidateIds ? { candidateIds: c.candidateIds } : {}),
    ...(c.ranking ? { ranking: c.ranking } : {}),
    ...(c.candidateNames ? { candidateNames: c.candidateNames } : {}),
    ...(c.ballot ? { ballot: c.ballot } : {}),
    ...(c.tracker ? { tracker: c.tracker } : {}),
  };
}

/** The vote as the voter's vote list holds it (the API's MyVote: marks under candidateIds, ranked or not). */
export function recordedVote(positionId: string, c: ChoiceFields): MyVote {
  const marks = c.ranking ?? c.candidateIds;
  return {
    positionId,
    candidateId: marks ? (marks[0] ?? "") : c.candidateId,
    candidateName: c.candidateName,
    ...(c.choice ? { choice: c.choice } : {}),
    ...(marks ? { candidateIds: marks, candidateNames: c.candidateNames ?? [] } : {}),
    ...(c.tracker ? { tracker: c.tracker } : {}),
  };
}

/** How a vote reads on its card: the candidate; 'Yes', 'No' or 'Abstain'; the marks ('1. Ada, 2. Grace' when ranked). */
export function voteLabel(vote: MyVote, method?: BallotMethod): string {
  if (vote.choice === "no") return "No";
  if (vote.choice === "abstain") return "Abstain";
  if (vote.choice === "yes") return "Yes";
  const names = vote.candidateNames;
  if (names && names.length > 0) return method === "ranked" ? names.map((n, i) => `${i + 1}. ${n}`).join(", ") : names.join(", ");
  return vote.candidateName;
}
