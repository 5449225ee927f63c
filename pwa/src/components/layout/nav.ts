/** Sidebar groups per role, exactly as docs/product.md (Screens, Layout) lists them. */
import type { IconName } from "../ui/Icon";

export type { IconName };

export interface NavItem {
  to: string;
  label: string;
  icon: IconName;
}
export interface NavGroup {
  title: string;
  items: NavItem[];
}


const others: NavGroup = { title: "Others", items: [{ to: "/settings", label: "Settings", icon: "settings" }] };

export const voterNav: NavGroup[] = [
  {
    title: "Analytics",
    items: [
      { to: "/", label: "Leaderboard", icon: "trophy" },
      { to: "/results", label: "Results", icon: "chart" },
    ],
  },
  { title: "Action", items: [{ to: "/vote", label: "Vote", icon: "ballot" }] },
  {
    title: "Information",
    items: [
      { to: "/candidates", label: "All Candidates", icon: "users" },
      { to: "/receipts", label: "Counted Ballots", icon: "receipt" },
      { to: "/ballot-box", label: "Ballot Box", icon: "receipt" },
      { to: "/elections", label: "Past Elections", icon: "log" },
    ],
  },
  others,
];

export const adminNav: NavGroup[] = [
  {
    title: "Administration",
    items: [
      { to: "/admin", label: "Admin Panel", icon: "shield" },
      { to: "/admin/users", label: "Create Users", icon: "user-plus" },
      { to: "/admin/positions", label: "Create Positions", icon: "list-plus" },
      { to: "/admin/candidates", label: "Create Candidates", icon: "id-card" },
    ],
  },
  {
    title: "Election",
    items: [
      { to: "/admin/election", label: "Election Settings", icon: "settings" },
      { to: "/elections", label: "Past Elections", icon: "receipt" },
      { to: "/ballot-box", label: "Ballot Box", icon: "receipt" },
      { to: "/admin/elections/new", label: "New Election", icon: "list-plus" },
      { to: "/admin/nominations", label: "Nominations", icon: "id-card" },
      { to: "/admin/voters/import", label: "Import Voters", icon: "user-plus" },
      { to: "/admin/voters", label: "Manage Voters", icon: "users" },
      { to: "/admin/stations", label: "Polling Stations", icon: "ballot" },
      { to: "/admin/notifications", label: "Notify Voters", icon: "mail" },
      { to: "/admin/trustees", label: "Trustees", icon: "shield" },
      { to: "/admin/credentials", label: "Credential Authority", icon: "id-card" },
      { to: "/admin/decrypt", label: "Decrypt", icon: "receipt" },
      { to: "/admin/who-voted", label: "Who Voted", icon: "users" },
      { to: "/admin/audit", label: "Audit Log", icon: "log" },
    ],
  },
  others,
];

/** An officer's own sign-in: their polling station, and the published archives (`officerMayOpen`). */
export const officerNav: NavGroup[] = [
  {
    title: "Election",
    items: [
      { to: "/station", label: "Polling Station", icon: "ballot" },
      { to: "/elections", label: "Past Elections", icon: "log" },
    ],
  },
];

/**
 * An observer's sidebar: the admin one without the pages only admins may open
 * (`observerMayOpen`, lib/guards.ts), and without groups left empty.
 */
export function navFor(role: string | undefined, observerMayOpen: (path: string) => boolean): NavGroup[] {
  if (role === "admin") return adminNav;
  if (role === "officer") return officerNav;
  if (role !== "observer") return voterNav;
  return adminNav
    .map((g) => ({ ...g, items: g.items.filter((i) => !i.to.startsWith("/admin") || observerMayOpen(i.to)) }))
    .filter((g) => g.items.length > 0);
}
