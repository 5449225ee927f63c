import { SINGLE_CHOICE, messages, resolveMethod, type PositionMethod } from "@evoting/shared";
import type { FieldErrors } from "../../lib/form-errors";
import type { MethodField } from "./MethodFields";

/** The shared method check (the API applies the same), its message under the field it is about. */
export function methodProblem(input: Partial<Record<keyof PositionMethod, unknown>>, current: PositionMethod = SINGLE_CHOICE): FieldErrors<MethodField> | null {
  const resolved = resolveMethod(current, input);
  if (typeof resolved !== "string") return null;
  if (resolved === messages.questionRequired || resolved === messages.questionNeedsReferendum) return { question: resolved };
  if (resolved === messages.seatsNeedMethod) return { seats: resolved };
  return { method: resolved };
}
