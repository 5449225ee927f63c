/**
 * The offline module's public surface (no React here; the app's glue, with its hooks, is in
 * ./app). The app installs it once (`installOffline`, from ./app/runtime.ts, the chunk's one
 * entry through ./app/load.ts), its queries fall back to the device through `fromDevice`, and
 * components subscribe to the stores with useSyncExternalStore.
 */
export { offlineDb, clearUserData, forgetUser } from "./db";
export type { EvotingDB, CacheData, CacheKey, OutboxItem, OutboxOutcome, OutboxStatus, PositionMark } from "./db";
export { queueVote, pendingVotes, unseenOutcomes, markOutcomeSeen, QueueRefusedError } from "./outbox";
export { createSyncEngine, OUTBOX_LOCK } from "./sync";
export type { SyncEngine, SyncStatus, SendResult } from "./sync";
export { readCached, writeCached, offlineNotice, formatClock, isOfflineError, freshness } from "./cache";
export type { Cached } from "./cache";
export { installOffline } from "./install";
export type { OfflineRuntime, CastResult, InstallOfflineOptions, OutboxHttp } from "./install";
export { registerAppShell } from "./sw-registration";
export type { AppShell, AppShellState } from "./sw-registration";
export { toLocalVoteStates, watchVoteStates } from "./vote-states";
export type { LocalVoteStatus, LocalVoteStates } from "./vote-states";
export { offlineText, describeOutcome } from "./notices";
export { createStore } from "./store";
export type { ReadableStore } from "./store";
export { prefetchPhotos } from "./photos";
