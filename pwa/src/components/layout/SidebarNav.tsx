import { Link } from "@tanstack/react-router";
import { Icon } from "../ui/Icon";
import type { NavGroup } from "./nav";

interface SidebarNavProps {
  groups: NavGroup[];
  /** Called after a link is chosen (closes the drawer on narrow screens). */
  onNavigate?: () => void;
}

export function SidebarNav({ groups, onNavigate }: SidebarNavProps) {
  return (
    <nav aria-label="Main" className="flex-1 space-y-6 overflow-y-auto px-3 py-4">
      {groups.map((group) => (
        <div key={group.title}>
          <h2 className="px-3 text-xs font-semibold uppercase tracking-wider text-slate-600">{group.title}</h2>
          <ul className="mt-2 space-y-1">
            {group.items.map((item) => (
              <li key={item.to}>
                <Link
                  to={item.to}
                  onClick={onNavigate}
                  activeOptions={{ exact: item.to === "/" || item.to === "/admin" || item.to === "/admin/voters", includeSearch: false }}
                  className="focus-ring flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                  activeProps={{
                    className: "bg-indigo-50 !text-indigo-800 hover:!bg-indigo-100",
                    "aria-current": "page",
                  }}
                >
                  <Icon name={item.icon} className="size-5 shrink-0" />
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
