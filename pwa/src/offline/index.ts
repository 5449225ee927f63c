/**
 * The offline module's public surface (no React in this folder). The app installs it once
 * (`installOffline`), its queries read through `offlineRead`, and components subscribe to
 * the stores with useSyncExternalStore.
 */
export { offlineDb, clearUserData, forgetUser } from "./db";
export type { EvotingDB, CacheData, CacheKey, OutboxItem, OutboxOutcome, OutboxStatus, PositionMark } from "./db";
export { queueVote, pendingVotes, unseenOutcomes, markOutcomeSeen, QueueRefusedError } from "./outbox";
export { createSyncEngine, OUTBOX_LOCK } from "./sync";
export type { SyncEngine, SyncStatus, SendResult } from "./sync";
export { readThrough, readCached, writeCached, offlineRead, offlineNotice, formatClock, isOfflineError, freshness } from "./cache";
export type { Cached } from "./cache";
export { installOffline } from "./install";
export type { OfflineRuntime, CastResult, InstallOfflineOptions } from "./install";
export { registerAppShell } from "./app-shell";
export type { AppShell, AppShellState } from "./app-shell";
export { toLocalVoteStates, watchVoteStates } from "./vote-states";
export type { LocalVoteStatus, LocalVoteStates } from "./vote-states";
export { offlineText, describeOutcome } from "./notices";
export { createStore } from "./store";
export type { ReadableStore } from "./store";
export { prefetchPhotos } from "./photos";
