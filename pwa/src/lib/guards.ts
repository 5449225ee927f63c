/** Route guards (spec section 2 and 6). Redirects replace the history entry. */
import { redirect } from "@tanstack/react-router";
import { session } from "./session";

export function requireAuth() {
  if (!session.isAuthenticated()) throw redirect({ to: "/login", replace: true });
}

/** Every page under the signed-in layout: an officer staffs a polling station and sees nothing else (issue 14). */
export function requireAppArea() {
  requireAuth();
  if (session.user()?.role === "officer") throw redirect({ to: "/station", replace: true });
}

export function requireAdmin() {
  requireAuth();
  if (!session.isAdmin()) throw redirect({ to: "/", replace: true });
}

/** Where a signed-in user lands: admins on the Admin Panel, everyone else on the home page. */
export const homeFor = (role: string | undefined) => (role === "admin" ? "/admin" : role === "officer" ? "/station" : "/");
