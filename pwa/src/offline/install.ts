/**
 * Wires the offline module into the running app: one database, one sync engine sending
 * `POST /api/vote` through the app's API client (given as `http`, so this module imports
 * nothing above it), and the browser events that should make it replay (connection back, tab
 * focused or shown). The app calls `installOffline()` once at
 * start; everything else (queries, the vote page, the top bar) uses the returned object.
 */
import { messages, type CastVoteInput, type MyVote } from "@evoting/shared";
import { freshness } from "./cache";
import { clearUserData, forgetUser, offlineDb, type EvotingDB, type OutboxItem, type OutboxOutcome } from "./db";
import { guardQueuedVotes } from "./keep";
import { markOutcomeSeen, QueueRefusedError, queueVote, unseenOutcomes, type QueueVoteInput } from "./outbox";
import { createStore, type ReadableStore } from "./store";
import { createSyncEngine, type LockManagerLike, type SendResult, type SyncEngine, type SyncStatus } from "./sync";
import { StoreUnavailableError, withinTime } from "./device-db";
import { indexedDbOutbox } from "./outbox-store";
import { watchVoteStates, type LocalVoteStates } from "./vote-states";
import { choiceBody } from "../lib/vote-body";

/** The two calls the sync engine makes, as the app's API client (api/client.ts) makes them. */
export interface OutboxHttp {
  /** `POST /vote` with the bearer token and the `Idempotency-Key`; the answer as it came. */
  sendVote(vote: CastVoteInput & { idempotencyKey: string }, signal: AbortSignal): Promise<SendResult>;
  /** `GET /vote/my-votes` with the bearer token; throws unless 2xx. */
  myVotes(signal: AbortSignal): Promise<MyVote[]>;
}

export interface InstallOfflineOptions {
  http: OutboxHttp;
  /** The session's token; a vote is sent only while its own voter's session holds one. */
  getToken: () => string | null;
  getUserId: () => string | null;
  /** Called once per settled vote; same as an early `subscribeOutcomes`. */
  onOutcome?: (outcome: OutboxOutcome) => void;
  /** The server refused the token while replaying (sign the user out like any other 401). */
  onUnauthorized?: () => void;
  db?: EvotingDB;
  /** Where online/focus/visibility events come from; null in tests that kick by hand. */
  eventTarget?: Pick<Window, "addEventListener" | "removeEventListener"> | null;
  locks?: LockManagerLike | null;
  now?: () => number;
  requestTimeoutMs?: number;
  /** How long `queueVote` waits for the server before reporting 'queued'. */
  castWaitMs?: number;
}

export interface CastOptions {
  /** The vote's idempotency key (new when omitted). */
  key?: string;
  storeLimitMs?: number;
}

export type CastResult =
  | { status: "queued"; item: OutboxItem }
  | { status: OutboxOutcome["status"]; item: OutboxItem; outcome: OutboxOutcome };

export interface OfflineRuntime {
  db: EvotingDB;
  engine: SyncEngine;
  /** Engine status (pending count, waiting, auth-required) for the status card and top bar. */
  sync: ReadableStore<SyncStatus>;
  /** navigator.onLine, kept current. */
  online: ReadableStore<boolean>;
  /** Votes wait and the browser has not promised to keep this site's storage (keep.ts). */
  atRisk: ReadableStore<boolean>;
  /**
   * Saves the vote in the outbox (refusing a second one for the position), asks the engine to
   * send it, and reports what happened within `castWaitMs`: the outcome, or 'queued'. With
   * `storeLimitMs`, the store's open and the vote's write each get that long before it
   * fails with StoreUnavailableError (the vote is then not known to be stored). The engine sends
   * it with `OutboxHttp.sendVote`.
   */
  queueVote(input: QueueVoteInput, options?: CastOptions): Promise<CastResult>;
  /**
   * Every settled vote, once: toast it and update query caches here. Outcomes that settled
   * with no listener (before the UI mounted, in a closed tab) are replayed to the first one.
   */
  subscribeOutcomes(listener: (outcome: OutboxOutcome) => void): () => void;
  /** Live queued/voted/failed states of one user's positions for the vote page (one store per user). */
  voteStates(userId: string): ReadableStore<LocalVoteStates>;
  /** After sign-in: send what was held for this user and report outcomes not yet shown. */
  signedIn(userId: string): Promise<void>;
  /**
   * The session ended: forget the user's data except unsent votes, or with `everything`
   * ('Logout' on a shared computer) the unsent votes too.
   */
  signedOut(userId: string, everything?: boolean): Promise<void>;
  uninstall(): Promise<void>;
}

function timeoutSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === "function") return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException("The request timed out", "TimeoutError")), ms);
  return controller.signal;
}

export function installOffline(options: InstallOfflineOptions): OfflineRuntime {
  const db = options.db ?? offlineDb();
  const requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
  const castWaitMs = options.castWaitMs ?? 10_000;
  const target = options.eventTarget === undefined ? (typeof window === "undefined" ? null : window) : options.eventTarget;
  const now = options.now ?? Date.now;

  const signedInAs = (userId: string) => Boolean(options.getToken()) && options.getUserId() === userId;

  const send = async (item: OutboxItem): Promise<SendResult> => {
    // A vote is only ever sent with its own voter's token; anything else waits for them.
    if (!signedInAs(item.userId)) return { status: 401, body: { message: messages.sessionExpired } };
    const answer = await options.http.sendVote(
      {
        positionId: item.positionId,
        ...choiceBody(item),
        ...(item.ballotTicket ? { ballotTicket: item.ballotTicket } : {}),
        idempotencyKey: item.key,
      } as CastVoteInput & { idempotencyKey: string },
      timeoutSignal(requestTimeoutMs),
    );
    if (answer.status === 401) options.onUnauthorized?.();
    return answer;
  };

  const fetchMyVotes = async (userId: string): Promise<MyVote[]> => {
    if (!signedInAs(userId)) throw new Error("Not signed in as this voter");
    return options.http.myVotes(timeoutSignal(requestTimeoutMs));
  };

  const settled = new Map<string, (outcome: OutboxOutcome) => void>();
  const voteStores = new Map<string, ReadableStore<LocalVoteStates>>();
  const outcomeListeners = new Set<(outcome: OutboxOutcome) => void>();
  if (options.onOutcome) outcomeListeners.add(options.onOutcome);
  const told = new Set<string>();
  const onOutcome = (outcome: OutboxOutcome) => {
    settled.get(outcome.key)?.(outcome);
    // Nobody to tell yet (the UI has not subscribed): leave it unseen, it is replayed later.
    // `told` stops a live report and a replay of the same outcome from both reaching the voter.
    if (outcomeListeners.size === 0 || told.has(outcome.key)) return;
    told.add(outcome.key);
    for (const listener of [...outcomeListeners]) {
      try {
        listener(outcome);
      } catch (error) {
        console.error("Outcome listener failed", error);
      }
    }
    void markOutcomeSeen(outcome.key, db, now).catch(() => undefined);
  };

  const engine = createSyncEngine({
    store: indexedDbOutbox(db),
    send,
    fetchMyVotes,
    onOutcome,
    now,
    currentUserId: () => (options.getToken() ? options.getUserId() : null),
    ...(options.locks === undefined ? {} : { locks: options.locks }),
  });

  const sync = createStore<SyncStatus>(engine.getStatus());
  const unsubscribeSync = engine.subscribe((status) => sync.set(status));
  const online = createStore<boolean>(typeof navigator === "undefined" ? true : navigator.onLine !== false);
  const pending = createStore(sync.getSnapshot().pending);
  const unsubscribePending = sync.subscribe(() => pending.set(sync.getSnapshot().pending));
  const guard = guardQueuedVotes({ pending, ...(target ? {} : { target: null, storage: null }) });

  const onOnline = () => {
    online.set(true);
    void engine.kick();
  };
  const onOffline = () => online.set(false);
  const onFocus = () => void engine.kick();
  const onVisible = () => {
    if (typeof document !== "undefined" && document.visibilityState === "visible") void engine.kick();
  };
  target?.addEventListener("online", onOnline);
  target?.addEventListener("offline", onOffline);
  target?.addEventListener("focus", onFocus);
  if (typeof document !== "undefined" && target) document.addEventListener("visibilitychange", onVisible);

  void engine.start();

  async function showUnseen(userId: string) {
    for (const outcome of await unseenOutcomes(userId, db)) onOutcome(outcome);
  }
  const signedInUser = () => (options.getToken() ? options.getUserId() : null);
  const initialUser = signedInUser();
  if (initialUser && outcomeListeners.size > 0) void showUnseen(initialUser).catch(() => undefined);

  return {
    db,
    engine,
    sync,
    online,
    atRisk: guard.atRisk,
    async queueVote(input, { key, storeLimitMs } = {}) {
      const queue = () => queueVote(input, { db, now, ...(key ? { newKey: () => key } : {}) });
      let item: OutboxItem;
      if (storeLimitMs === undefined) {
        item = await queue();
      } else {
        // Anything but the outbox's own refusal means the vote is not known to be stored.
        const unavailable = (error: unknown): never => {
          throw error instanceof QueueRefusedError || error instanceof StoreUnavailableError ? error : new StoreUnavailableError(error);
        };
        await withinTime(db.open(), storeLimitMs, "Opening the device store").catch(unavailable);
        item = await withinTime(queue(), storeLimitMs, "Saving the vote on this device").catch(unavailable);
      }
      let resolveOutcome!: (outcome: OutboxOutcome) => void;
      const outcome = new Promise<OutboxOutcome>((resolve) => (resolveOutcome = resolve));
      settled.set(item.key, resolveOutcome);
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        // Whichever comes first: the outcome, the end of a pass that could not deliver (the
        // item is backing off: report 'queued' at once), or the wait running out.
        const delivery = engine.kick().then(() => db.outcomes.get(item.key));
        const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), castWaitMs)));
        const result = await Promise.race([outcome, delivery, timeout]);
        return result ? { status: result.status, item, outcome: result } : { status: "queued", item };
      } finally {
        clearTimeout(timer);
        settled.delete(item.key);
      }
    },
    subscribeOutcomes(listener) {
      outcomeListeners.add(listener);
      // The first listener (the app's toaster) hears what settled while nobody was listening.
      const user = signedInUser();
      if (outcomeListeners.size === 1 && user) void showUnseen(user).catch(() => undefined);
      return () => {
        outcomeListeners.delete(listener);
      };
    },
    voteStates(userId) {
      let store = voteStores.get(userId);
      if (!store) voteStores.set(userId, (store = watchVoteStates(db, userId)));
      return store;
    },
    async signedIn(userId) {
      await engine.resumeForUser(userId);
      await showUnseen(userId);
    },
    async signedOut(userId, everything = false) {
      freshness.reset();
      await (everything ? forgetUser(userId, db) : clearUserData(userId, db));
      await engine.kick();
    },
    async uninstall() {
      target?.removeEventListener("online", onOnline);
      target?.removeEventListener("offline", onOffline);
      target?.removeEventListener("focus", onFocus);
      if (typeof document !== "undefined" && target) document.removeEventListener("visibilitychange", onVisible);
      unsubscribeSync();
      unsubscribePending();
      guard.stop();
      await engine.stop();
    },
  };
}
