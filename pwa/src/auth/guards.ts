/** Route guards (docs/product.md, Screens). Redirects replace the history entry. */
import { redirect } from "@tanstack/react-router";
import { canVote } from "@evoting/shared";
import { session } from "./session";

export function requireAuth() {
  if (!session.isAuthenticated()) throw redirect({ to: "/login", replace: true });
}

/**
 * What an officer may open besides their station: Past Elections, each archive and its printed
 * sheet. A declared election's results were published to every signed-in user; the running
 * election's pages stay closed to the people who staff its polling stations.
 */
export const officerMayOpen = (path: string) => /^\/elections(\/\d+(\/print)?)?$/.test(path.replace(/\/+$/, "") || "/");

/**
 * Every signed-in page: a device holding a polling station's token (whoever opened it) stays on
 * the station, as the server refuses that token everywhere else (decision 0009); an officer's
 * own sign-in also opens the published archives, and nothing more.
 */
export function requireAppArea({ location }: { location?: { pathname: string } } = {}) {
  requireAuth();
  if (session.isStationDevice()) throw redirect({ to: "/station", replace: true });
  if (session.user()?.role === "officer" && !(location && officerMayOpen(location.pathname))) throw redirect({ to: "/station", replace: true });
}

/**
 * The admin pages an observer may open: read-only views. Any other admin page
 * (every create, import or settings form) is admins' only, so a new write page is closed to
 * observers unless it is listed here.
 */
export const OBSERVER_PAGES: readonly string[] = [
  "/admin",
  "/admin/manage-positions",
  "/admin/manage-candidates",
  "/admin/nominations",
  "/admin/voters",
  "/admin/stations",
  "/admin/notifications",
  // A trustee (a candidate's agent) registers their own key and decrypts their own share.
  "/admin/trustees",
  "/admin/decrypt",
  // Who voted, never how: the server gives it to observers, who publish it beside the officer.
  "/admin/who-voted",
  "/admin/audit",
  "/admin/results/print",
];

export const observerMayOpen = (path: string) => OBSERVER_PAGES.includes(path.replace(/\/+$/, "") || "/");

/** The ballot is voters' only: admins and observers never vote, so they go to their own home. */
export function requireVoter() {
  const role = session.user()?.role;
  if (!canVote(role)) throw redirect({ to: homeFor(role), replace: true });
}

/** Admins anywhere under /admin; observers on the read-only pages (else the panel); others to /. */
export function requireAdmin({ location }: { location?: { pathname: string } } = {}) {
  requireAuth();
  if (!session.canViewAdmin()) throw redirect({ to: "/", replace: true });
  if (!session.canWriteAdmin() && location && !observerMayOpen(location.pathname)) throw redirect({ to: "/admin", replace: true });
}

/** Where a signed-in user lands: admins and observers on the Admin Panel, officers at their station, voters at home. */
export const homeFor = (role: string | undefined) =>
  role === "admin" || role === "observer" ? "/admin" : role === "officer" ? "/station" : "/";
