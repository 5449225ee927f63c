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

interface RouteOptions {
  /** The initial URL's search, e.g. `?page=2`. */
  search?: string;
  /** The screen's route's `validateSearch`, as the app's route declares it. */
  validateSearch?: (search: Record<string, unknown>) => object;
}

/** Renders one screen at `path` inside a real router; every other path shows its own name. */
export function renderRoute(Screen: () => ReactElement, path = "/", { search = "", validateSearch }: RouteOptions = {}) {
  const client = testQueryClient();
  const root = createRootRouteWithContext<RouterContext>()({
    component: () => (
      <>
        <Outlet />
        <AppToaster />
      </>
    ),
  });
  const screen = createRoute({ getParentRoute: () => root, path, component: Screen, ...(validateSearch ? { validateSearch } : {}) });
  const elsewhere = createRoute({
    getParentRoute: () => root,
    path: "$",
    component: () => <p data-testid="elsewhere">elsewhere</p>,
  });
  const router = createRouter({
    routeTree: root.addChildren([screen, elsewhere]),
    history: createMemoryHistory({ initialEntries: [path + search] }),
    context: { queryClient: client },
  });
  const result = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router, ...result };
}
