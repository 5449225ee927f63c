/**
 * The list screens' filters and page, kept in the URL: a filtered Manage Voters or Audit Log
 * can be shared, reloaded and reached again with Back. Each route validates its search with
 * one of these (`validateSearch`); a missing or bad value falls back to the default, which
 * leaves the URL. Plain functions, not zod: route definitions are part of every page's first
 * load (the route tree), and zod there would weigh on /login (decision 0018).
 */
import type { NominationState } from "@evoting/shared";

type RawSearch = Record<string, unknown>;

/** A filter's text; the router reads `?query=123` as the number 123, which is still the text "123". */
const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : undefined;

/** A page number: a positive whole number, or nothing (page 1). */
const page = (value: unknown): number | undefined => {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/** The search with only the keys that hold a value. */
const defined = <T extends object>(search: T): T => Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined)) as T;

export interface VotersSearch {
  query?: string;
  group?: string;
  voted?: "yes" | "no";
  page?: number;
}

export const votersSearch = (search: RawSearch): VotersSearch =>
  defined({
    query: text(search.query),
    group: text(search.group),
    voted: search.voted === "yes" || search.voted === "no" ? search.voted : undefined,
    page: page(search.page),
  });

export interface AuditSearch {
  action?: string;
  actor?: string;
  page?: number;
}

export const auditSearch = (search: RawSearch): AuditSearch => defined({ action: text(search.action), actor: text(search.actor), page: page(search.page) });

/** shared's NOMINATION_STATES, typed against it; not imported, so no zod reaches the route tree. */
const NOMINATION_STATE_NAMES: readonly NominationState[] = ["awaiting", "submitted", "approved", "rejected", "withdrawn"];

export interface NominationsSearch {
  state?: NominationState;
  positionId?: string;
}

export const nominationsSearch = (search: RawSearch): NominationsSearch =>
  defined({
    state: NOMINATION_STATE_NAMES.find((s) => s === search.state),
    positionId: text(search.positionId),
  });

/** A search with its defaults left out ('' filters, page 1), so the URL names only what is set. */
export function withoutDefaults<T extends { page?: number }>(search: T): T {
  const entries = Object.entries(search as Record<string, unknown>).filter(([key, value]) => value !== undefined && value !== "" && !(key === "page" && value === 1));
  return Object.fromEntries(entries) as T;
}
