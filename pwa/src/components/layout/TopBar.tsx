import type { ReactNode } from "react";
import { useNavigate } from "@tanstack/react-router";
import { canViewAdmin, type UserProfile } from "@evoting/shared";
import { useLogout } from "../../data/use-logout";
import { Icon } from "../ui/Icon";
import { buttonClass } from "../ui/Button";
import { TopBarExtras } from "./TopBarExtras";
import { LogoMark } from "./LogoMark";

export function TopBar({ user, menuButton }: { user: UserProfile; menuButton: ReactNode }) {
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <header className="sticky top-0 z-20 flex h-16 items-center gap-1.5 border-b border-slate-200 bg-white/90 px-3 backdrop-blur sm:gap-3 sm:px-6 lg:px-8">
      {menuButton}
      <div className="hidden min-w-0 items-center gap-2 sm:flex lg:hidden">
        <LogoMark size={28} className="size-7" />
      </div>
      <p className="min-w-0 flex-1 truncate text-sm text-slate-700 sm:text-base" title={`Welcome, ${user.name}`}>
        Welcome, <span className="font-semibold text-slate-900">{user.name}</span>
      </p>
      <TopBarExtras />
      {canViewAdmin(user.role) && (
        <button type="button" className={buttonClass("secondary", "sm", "max-sm:w-9 max-sm:px-0")} onClick={() => void navigate({ to: "/admin" })}>
          <Icon name="shield" className="size-4" />
          <span className="sr-only sm:not-sr-only">Admin Panel</span>
        </button>
      )}
      <button
        type="button"
        onClick={logout}
        aria-label="Logout"
        title="Logout"
        className="focus-ring rounded-lg p-2 text-slate-700 hover:bg-red-50 hover:text-red-700"
      >
        <Icon name="logout" />
      </button>
    </header>
  );
}
