/** Verifiable positions' admin query options (the calls: api/verifiable-admin.ts). */
import { queryOptions } from "@tanstack/react-query";
import type { Position } from "@evoting/shared";
import { verifiableApi } from "../api/verifiable-admin";
import { queryKeys } from "./query-keys";

export const trusteesKey = ["admin", "trustees"] as const;

export const trusteesQuery = () => queryOptions({ queryKey: trusteesKey, queryFn: verifiableApi.trustees });

/** The verifiable positions, in the admin list's order (the Belenios answers follow it). */
export const verifiablePositionsQuery = () =>
  queryOptions({
    queryKey: queryKeys.adminPositions,
    queryFn: verifiableApi.positions,
    select: (list: Position[]) => list.filter((p) => p.belenios),
  });

/** Who voted for a position, once it has closed; a refusal (409 before the close) is the answer to show, not retried. */
export const whoVotedQuery = (positionId: string) =>
  queryOptions({ queryKey: ["admin", "who-voted", positionId] as const, queryFn: () => verifiableApi.whoVoted(positionId), retry: false });
