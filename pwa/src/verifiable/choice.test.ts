import { describe, expect, test } from "vitest";
import { ChoiceNotEncryptable, beleniosChoice } from "./choice";

const base = { candidateId: "", candidateName: "" };
const position = { method: "single" as const, belenios: { uuid: "u", state: "open" as const, election: "{}", answerIds: ["a", "b", "c"] } };

describe("beleniosChoice", () => {
  test("candidates by the locked answers' order, whatever order the ballot shows them in", () => {
    expect(beleniosChoice(position, { ...base, candidateId: "c" })).toEqual({ selected: [2] });
    expect(beleniosChoice({ ...position, method: "multi" }, { ...base, candidateIds: ["b", "a"] })).toEqual({ selected: [1, 0] });
    expect(beleniosChoice(position, { ...base, choice: "abstain" })).toEqual({ blank: true });
  });

  test("a referendum is Yes, No (or blank)", () => {
    const referendum = { method: "referendum" as const, belenios: { ...position.belenios, answerIds: null } };
    expect(beleniosChoice(referendum, { ...base, choice: "yes" })).toEqual({ selected: [0] });
    expect(beleniosChoice(referendum, { ...base, choice: "no" })).toEqual({ selected: [1] });
  });

  test("a candidate the locked ballot does not hold, or a 'No' it has no answer for, is refused plainly", () => {
    expect(() => beleniosChoice(position, { ...base, candidateId: "z" })).toThrow(ChoiceNotEncryptable);
    expect(() => beleniosChoice(position, { ...base, choice: "no" })).toThrow(/no 'No'/);
    const lone = { ...position, belenios: { ...position.belenios, answerIds: ["a"] } };
    expect(beleniosChoice(lone, { ...base, choice: "yes" })).toEqual({ selected: [0] });
  });
});
