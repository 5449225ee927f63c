import { QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "../api/client";
import { session } from "../auth/session";

/** Client errors (4xx) will not change on retry; network and 5xx errors get two more tries. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 10_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/**
 * Cached answers belong to the session that fetched them: when the token changes (sign-in,
 * sign-out, a 401, another tab), drop them so one voter never sees another's votes.
 */
export function clearOnSessionChange(client: QueryClient): () => void {
  let token = session.token();
  return session.subscribe(() => {
    const next = session.token();
    if (next === token) return;
    token = next;
    client.clear();
  });
}
