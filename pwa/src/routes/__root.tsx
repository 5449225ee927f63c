import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import type { RouterContext } from "../lib/router-context";
import { AppToaster } from "../components/AppToaster";
import { NotFound } from "../components/NotFound";

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <AppToaster />
    </>
  ),
  notFoundComponent: NotFound,
});
