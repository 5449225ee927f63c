/**
 * Every query key, query option factory and mutation of the app. Screens read data only
 * through these, so an offline store (pwa/src/offline) can slot in beneath them by changing
 * the query functions here, not the screens.
 */
import {
  queryOptions,
  useMutation,
  useMutationState,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import { RESULTS_REFETCH_MS, type BallotPosition, type Candidate, type MyVote, type Results } from "@evoting/shared";
import { api, type CastVoteRequest } from "./api-client";

export const queryKeys = {
  profile: ["auth", "profile"] as const,
  ballotPositions: ["vote", "positions"] as const,
  myVotes: ["vote", "my-votes"] as const,
  results: ["vote", "results"] as const,
  adminPositions: ["admin", "positions"] as const,
  adminCandidates: ["admin", "candidates"] as const,
};

export const mutationKeys = {
  castVote: ["vote", "cast"] as const,
};

export const profileQuery = () => queryOptions({ queryKey: queryKeys.profile, queryFn: api.profile, staleTime: 0 });

export const ballotPositionsQuery = () =>
  queryOptions({ queryKey: queryKeys.ballotPositions, queryFn: api.ballotPositions });

/** Candidates for any signed-in user, flattened from the ballot (voters cannot read the admin list). */
export const allCandidatesQuery = () =>
  queryOptions({
    queryKey: queryKeys.ballotPositions,
    queryFn: api.ballotPositions,
    select: (positions: BallotPosition[]): Candidate[] =>
      positions.flatMap((p) =>
        p.candidates.map((c) => ({ ...c, positionId: c.positionId ?? p._id, positionTitle: c.positionTitle ?? p.title })),
      ),
  });

export const myVotesQuery = () => queryOptions({ queryKey: queryKeys.myVotes, queryFn: api.myVotes });

export const resultsQuery = () =>
  queryOptions({
    queryKey: queryKeys.results,
    queryFn: api.results,
    refetchInterval: RESULTS_REFETCH_MS,
  });

export const adminPositionsQuery = () =>
  queryOptions({ queryKey: queryKeys.adminPositions, queryFn: api.adminPositions });

export const adminCandidatesQuery = () =>
  queryOptions({ queryKey: queryKeys.adminCandidates, queryFn: api.adminCandidates });

/** After any change to positions or candidates, every list that shows them is refetched. */
export function invalidateElectionData(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.adminPositions }),
    client.invalidateQueries({ queryKey: queryKeys.adminCandidates }),
    client.invalidateQueries({ queryKey: queryKeys.ballotPositions }),
    client.invalidateQueries({ queryKey: queryKeys.results }),
  ]);
}

/** Applies a server results snapshot (e.g. from the SSE stream) without a refetch. */
export function setResults(client: QueryClient, results: Results) {
  client.setQueryData(queryKeys.results, results);
}

// ---------------------------------------------------------------------------------------
// Casting a vote

export type CastVoteVariables = Omit<CastVoteRequest, "idempotencyKey"> & { candidateName: string };

/**
 * Casts one vote. Each call gets a fresh Idempotency-Key, so the server can replay a retried
 * request instead of counting it twice. On success the vote joins the my-votes list, which
 * is what locks the card; results are refetched.
 */
export function useCastVote() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.castVote,
    mutationFn: ({ positionId, candidateId, ballotTicket }: CastVoteVariables) =>
      api.castVote({ positionId, candidateId, ballotTicket, idempotencyKey: crypto.randomUUID() }),
    onSuccess: (response, variables) => {
      const vote: MyVote = response?.vote ?? {
        positionId: variables.positionId,
        candidateId: variables.candidateId,
        candidateName: variables.candidateName,
      };
      client.setQueryData<MyVote[]>(queryKeys.myVotes, (votes = []) => [
        ...votes.filter((v) => v.positionId !== vote.positionId),
        vote,
      ]);
      void client.invalidateQueries({ queryKey: queryKeys.results });
    },
    onError: () => {
      // A 409 means this voter's vote is already recorded (perhaps from another device).
      void client.invalidateQueries({ queryKey: queryKeys.myVotes });
    },
  });
}

/** Positions with a vote being sent right now, across every card on the page. */
export function useCastingPositionIds(): Set<string> {
  const ids = useMutationState({
    filters: { mutationKey: mutationKeys.castVote, status: "pending" },
    select: (mutation) => (mutation.state.variables as CastVoteVariables | undefined)?.positionId,
  });
  return new Set(ids.filter((id): id is string => typeof id === "string"));
}
