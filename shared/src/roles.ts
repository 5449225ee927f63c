/** Who may do what, by role. One place for both the API's checks and the PWA's guards. */
import type { Role } from "./types.ts";

export const ROLES = ["admin", "observer", "officer", "voter"] as const satisfies readonly Role[];

/** Any stored role the product does not know is a voter (docs/product.md, Who uses it). */
export const toRole = (value: unknown): Role =>
  value === "admin" || value === "observer" || value === "officer" ? value : "voter";

/** Staff sign in by password only and never vote. */
export const isStaff = (role: Role | string | undefined): boolean =>
  role === "admin" || role === "observer" || role === "officer";

/** May open the Admin Panel: admins fully, observers read-only. */
export const canViewAdmin = (role: Role | string | undefined): boolean => role === "admin" || role === "observer";

/** May change anything through the admin routes. */
export const canWriteAdmin = (role: Role | string | undefined): boolean => role === "admin";

export const canVote = (role: Role | string | undefined): boolean => !isStaff(role);
