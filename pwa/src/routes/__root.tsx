import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import type { RouterContext } from "../router-context";
import { AppToaster } from "../components/AppToaster";
import { LogoutWarning } from "../components/LogoutWarning";
import { NotFound } from "../components/NotFound";

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <AppToaster />
      <LogoutWarning />
    </>
  ),
  notFoundComponent: NotFound,
});
