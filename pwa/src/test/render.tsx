import type { ReactElement, ReactNode } from "react";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
} from "@tanstack/react-router";
import type { RouterContext } from "../router-context";
import { AppToaster } from "../components/AppToaster";

export function testQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export function renderWithQuery(ui: ReactNode, client = testQueryClient()) {
  return { client, ...render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>) };
}

/** Renders one screen at `path` inside a real router; every other path shows its own name. */
export function renderRoute(Screen: () => ReactElement, path = "/") {
  const client = testQueryClient();
  const root = createRootRouteWithContext<RouterContext>()({
    component: () => (
      <>
        <Outlet />
        <AppToaster />
      </>
    ),
  });
  const screen = createRoute({ getParentRoute: () => root, path, component: Screen });
  const elsewhere = createRoute({
    getParentRoute: () => root,
    path: "$",
    component: () => <p data-testid="elsewhere">elsewhere</p>,
  });
  const router = createRouter({
    routeTree: root.addChildren([screen, elsewhere]),
    history: createMemoryHistory({ initialEntries: [path] }),
    context: { queryClient: client },
  });
  const result = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router, ...result };
}
