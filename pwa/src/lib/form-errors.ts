import type { z } from "zod";

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** The first message per field of a failed zod parse, for showing under each input. */
export function fieldErrors<K extends string>(error: z.ZodError): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "") as K;
    if (key && !out[key]) out[key] = issue.message;
  }
  return out;
}
