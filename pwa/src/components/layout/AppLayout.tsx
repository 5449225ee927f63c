import { useEffect, useState } from "react";
import { Outlet, useNavigate } from "@tanstack/react-router";
import * as Dialog from "@radix-ui/react-dialog";
import { useSession } from "../../auth/use-session";
import { Icon } from "../ui/Icon";
import { Logo } from "./Logo";
import { SidebarNav } from "./SidebarNav";
import { TopBar } from "./TopBar";
import { OfflineNotices } from "./OfflineNotices";
import { navFor } from "./nav";
import { observerMayOpen } from "../../auth/guards";

/** Signed-in shell: a fixed 16rem sidebar on wide screens, a slide-over drawer on narrow ones. */
export function AppLayout() {
  const current = useSession();
  const navigate = useNavigate();
  const [drawerOpen, setDrawerOpen] = useState(false);

  // Signing out anywhere (logout, a 401 from the API, another tab) leaves the protected area.
  useEffect(() => {
    if (!current) void navigate({ to: "/login", replace: true });
  }, [current, navigate]);

  if (!current) return null;
  const groups = navFor(current.user.role, observerMayOpen);

  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow-lg"
      >
        Skip to content
      </a>

      <aside className="fixed inset-y-0 left-0 z-30 hidden w-64 flex-col border-r border-slate-200 bg-white lg:flex">
        <div className="flex h-16 items-center border-b border-slate-200 px-5">
          <Logo />
        </div>
        <SidebarNav groups={groups} />
      </aside>

      <Dialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
        <Dialog.Portal>
          <Dialog.Overlay
            data-testid="drawer-backdrop"
            className="fixed inset-0 z-40 bg-slate-900/50 lg:hidden"
          />
          <Dialog.Content
            aria-describedby={undefined}
            className="drawer-panel fixed inset-y-0 left-0 z-50 flex w-64 max-w-[85vw] flex-col bg-white shadow-xl focus:outline-none lg:hidden"
          >
            <div className="flex h-16 items-center justify-between border-b border-slate-200 px-4">
              <Dialog.Title asChild>
                <div>
                  <Logo />
                </div>
              </Dialog.Title>
              <Dialog.Close className="focus-ring rounded-lg p-2 text-slate-600 hover:bg-slate-100" aria-label="Close menu">
                <Icon name="close" />
              </Dialog.Close>
            </div>
            <SidebarNav groups={groups} onNavigate={() => setDrawerOpen(false)} />
          </Dialog.Content>
        </Dialog.Portal>

        <div className="lg:pl-64">
          <TopBar user={current.user} menuButton={
            <Dialog.Trigger className="focus-ring -ml-1 rounded-lg p-2 text-slate-700 hover:bg-slate-100 lg:hidden" aria-label="Open menu">
              <Icon name="menu" className="size-6" />
            </Dialog.Trigger>
          } />
          <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl px-4 py-6 focus:outline-none sm:px-6 lg:px-8 lg:py-8">
            <OfflineNotices />
            <Outlet />
          </main>
        </div>
      </Dialog.Root>
    </div>
  );
}
