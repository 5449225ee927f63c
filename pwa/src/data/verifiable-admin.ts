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
