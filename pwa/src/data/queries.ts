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
import {
  RESULTS_REFETCH_MS,
  type BallotPosition,
  type Candidate,
  type MyVote,
  type Results,
} from "@evoting/shared";
import type { CacheData, CacheKey } from "../offline/db";
import { api } from "../api/client";
import { loadOffline, loadOfflineWhenIdle } from "../offline/app/load";
import { castVote, type CastVoteVariables } from "./cast-vote";
import { mutationKeys, queryKeys } from "./query-keys";
import { session } from "../auth/session";

export { mutationKeys, queryKeys } from "./query-keys";

// The voter's reads go network first and fall back to this device's copy (pwa/src/offline),
// so they run with `networkMode: "always"`: react-query must not pause them while offline.
// The offline module (IndexedDB) is loaded when the page is idle, to keep a good answer, or at
// once to answer from the device: never in front of the first render.

const signedInId = () => session.user()?._id ?? null;
const hasIndexedDb = () => typeof indexedDB !== "undefined";

/**
 * Network first, this device's copy when the network fails. The request starts at once; the
 * database code loads once the page is idle (to keep the answer) or after it (to answer from
 * the device), never in front of it.
 */
export function offlineRead<K extends CacheKey>(key: K, fetcher: () => Promise<CacheData[K]>): () => Promise<CacheData[K]> {
  return async () => {
    const userId = signedInId();
    if (!userId || !hasIndexedDb()) return fetcher();
    let data: CacheData[K];
    try {
      data = await fetcher();
    } catch (error) {
      return (await loadOffline()).fromDevice(key, userId, error);
    }
    const savedAt = Date.now();
    void loadOfflineWhenIdle().then((offline) => offline.keep(key, userId, data, savedAt));
    return data;
  };
}

const profileFn = offlineRead("profile", api.profile);
export const profileQuery = () =>
  queryOptions({ queryKey: queryKeys.profile, queryFn: profileFn, staleTime: 0, networkMode: "always" });

/** Ballot positions and all candidates share a key, so they share this one function. */
const readPositions = offlineRead("positions", api.ballotPositions);
async function positionsFn(): Promise<BallotPosition[]> {
  const positions = await readPositions();
  // Warm the service worker's photo cache so faces show offline, even on unscrolled cards.
  if (signedInId() && hasIndexedDb()) void loadOfflineWhenIdle().then((offline) => offline.cachePhotos(positions));
  return positions;
}

export const ballotPositionsQuery = () =>
  queryOptions({ queryKey: queryKeys.ballotPositions, queryFn: positionsFn, networkMode: "always" });

/** Candidates for any signed-in user, flattened from the ballot (voters cannot read the admin list). */
export const allCandidatesQuery = () =>
  queryOptions({
    queryKey: queryKeys.ballotPositions,
    queryFn: positionsFn,
    networkMode: "always",
    select: (positions: BallotPosition[]): Candidate[] =>
      positions.flatMap((p) =>
        p.candidates.map((c) => ({ ...c, positionId: c.positionId ?? p._id, positionTitle: c.positionTitle ?? p.title })),
      ),
  });

const myVotesFn = offlineRead("myVotes", () => api.myVotes());
export const myVotesQuery = () => queryOptions({ queryKey: queryKeys.myVotes, queryFn: myVotesFn, networkMode: "always" });

const resultsFn = offlineRead("results", api.results);
export const resultsQuery = () =>
  queryOptions({
    queryKey: queryKeys.results,
    queryFn: resultsFn,
    networkMode: "always",
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
  // Kept as the last results snapshot for offline use.
  if (signedInId() && hasIndexedDb()) void loadOfflineWhenIdle().then((offline) => offline.keepResults(results));
}

/** A vote the server holds joins the my-votes list, which is what locks the card. */
export function addMyVote(client: QueryClient, vote: MyVote) {
  client.setQueryData<MyVote[]>(queryKeys.myVotes, (votes = []) => [
    ...votes.filter((v) => v.positionId !== vote.positionId),
    vote,
  ]);
}

// ---------------------------------------------------------------------------------------
// Casting a vote

export type { CastVoteResult, CastVoteVariables } from "./cast-vote";

/**
 * Casts one vote, through the offline outbox: saved on this device first, then sent with its
 * own Idempotency-Key (retries are replayed by the server, never counted twice). Resolves
 * 'queued' when no answer came quickly; the outbox keeps sending it.
 */
export function useCastVote() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.castVote,
    mutationFn: (variables: CastVoteVariables) => castVote(variables),
    // Sending is the outbox's job; react-query must not hold the cast while offline.
    networkMode: "always",
    onSuccess: (result) => {
      if (result.vote && result.status !== "rejected") addMyVote(client, result.vote);
      if (result.status !== "queued") void client.invalidateQueries({ queryKey: queryKeys.results });
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
