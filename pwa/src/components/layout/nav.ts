/** Sidebar groups per role, exactly as spec section 2 (Layout) lists them. */
export interface NavItem {
  to: string;
  label: string;
  icon: IconName;
}
export interface NavGroup {
  title: string;
  items: NavItem[];
}

export type IconName = "chart" | "trophy" | "ballot" | "users" | "settings" | "shield" | "user-plus" | "list-plus" | "id-card";

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
  { title: "Information", items: [{ to: "/candidates", label: "All Candidates", icon: "users" }] },
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
      { to: "/admin/voters/import", label: "Import Voters", icon: "user-plus" },
      { to: "/admin/voters", label: "Manage Voters", icon: "users" },
      { to: "/admin/stations", label: "Polling Stations", icon: "ballot" },
    ],
  },
  others,
];
