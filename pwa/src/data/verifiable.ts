/** The public ballot boxes' query options (the calls: api/verifiable.ts). */
import { queryOptions } from "@tanstack/react-query";
import { ballotBoxApi } from "../api/verifiable";

export const ballotBoxPositionsQuery = () => queryOptions({ queryKey: ["ballot-box"] as const, queryFn: ballotBoxApi.positions });

export const boardQuery = (positionId: string) =>
  queryOptions({ queryKey: ["ballot-box", positionId] as const, queryFn: () => ballotBoxApi.board(positionId), refetchInterval: 30_000 });
