import { useQuery } from "@tanstack/react-query";
import type { PositionResult } from "@evoting/shared";
import { electionQuery } from "../../data/election";
import { useNow } from "../../hooks/use-now";
import { fullCountText } from "../../lib/voting-closed";

/**
 * A ranked position still on first preferences after its close: the full count waits only for
 * the grace for votes cast offline, so say until when (null while voting is open or without the end).
 */
export function useClosedCountText(result: PositionResult): string | null {
  const waiting = result.count === "first-preferences" && result.endTime !== undefined;
  const { data: election } = useQuery({ ...electionQuery(), enabled: waiting });
  const now = useNow(15_000);
  if (!waiting || !result.endTime) return null;
  return fullCountText(result.endTime, election?.voteGraceMinutes, now);
}
