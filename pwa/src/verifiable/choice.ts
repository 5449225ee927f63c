/**
 * A verifiable position's choice as Belenios numbers it: the answers are the candidates in the
 * order the server fixed at the lock (`belenios.answerIds`), or Yes, No for a referendum; an
 * 'Abstain' is Belenios's blank vote.
 */
import type { BallotPosition } from "@evoting/shared";
import type { Choice } from "@evoting/shared/belenios";
import type { ChoiceFields } from "../lib/vote-body";

export class ChoiceNotEncryptable extends Error {}

export function beleniosChoice(position: Pick<BallotPosition, "method" | "belenios">, cast: ChoiceFields): Choice {
  const answerIds = position.belenios?.answerIds ?? null;
  if (cast.choice === "abstain") return { blank: true };
  if (position.method === "referendum") {
    if (cast.choice === "yes") return { selected: [0] };
    if (cast.choice === "no") return { selected: [1] };
    throw new ChoiceNotEncryptable("Choose Yes, No or Abstain.");
  }
  if (!answerIds) throw new ChoiceNotEncryptable("This ballot is not ready: reload the page while online.");
  const index = (id: string) => {
    const i = answerIds.indexOf(id);
    if (i < 0) throw new ChoiceNotEncryptable("This candidate is not on the locked ballot: reload the page while online.");
    return i;
  };
  if (cast.candidateIds) return { selected: cast.candidateIds.map(index) };
  // A lone candidate shown as Yes/No: Yes is that candidate; the locked ballot has no 'No'.
  if (cast.choice === "yes" && answerIds.length === 1) return { selected: [0] };
  if (cast.choice) throw new ChoiceNotEncryptable("This verifiable ballot has no 'No': choose the candidate or Abstain.");
  return { selected: [index(cast.candidateId)] };
}
