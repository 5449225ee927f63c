/**
 * The list screens' filters and page, kept in the URL: a filtered Manage Voters or Audit Log
 * can be shared, reloaded and reached again with Back. Each route validates its search with
 * one of these (`validateSearch`); a missing or bad value falls back to the default, which
 * leaves the URL. zod/mini, because route definitions are part of the first load.
 */
import * as z from "zod/mini";

const text = z.catch(z.optional(z.coerce.string()), undefined);
const page = z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined);

export const votersSearch = z.object({
  query: text,
  group: text,
  voted: z.catch(z.optional(z.enum(["yes", "no"])), undefined),
  page,
});
export type VotersSearch = z.infer<typeof votersSearch>;

export const nominationsSearch = z.object({
  state: z.catch(z.optional(z.enum(["awaiting", "submitted", "approved", "rejected", "withdrawn"])), undefined),
  positionId: text,
});
export type NominationsSearch = z.infer<typeof nominationsSearch>;

export const auditSearch = z.object({ action: text, actor: text, page });
export type AuditSearch = z.infer<typeof auditSearch>;

/** A search with its defaults left out ('' filters, page 1), so the URL names only what is set. */
export function withoutDefaults<T extends { page?: number }>(search: T): T {
  const entries = Object.entries(search as Record<string, unknown>).filter(([key, value]) => value !== undefined && value !== "" && !(key === "page" && value === 1));
  return Object.fromEntries(entries) as T;
}
