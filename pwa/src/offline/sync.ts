/**
 * The sync engine: delivers the vote outbox to `POST /api/vote`, exactly once per vote. It
 * decides when and what to send; every change to the stored outbox is one atomic step of an
 * `OutboxStore` (outbox-store.ts: IndexedDB in the app, memory in the engine's own tests).
 *
 * - Single flight: one replay loop per engine; a kick during a replay schedules one more pass.
 * - Across tabs: the whole pass runs under the Web Lock 'evoting-outbox' when the browser has
 *   Web Locks, and every send is preceded by an atomic claim in IndexedDB (queued -> sending
 *   with a lease), so two tabs never send the same item at once. Should they ever (a lease
 *   expired mid-request), the idempotency key makes the server answer the replay with the
 *   original result instead of counting a second ballot.
 * - Queue order: the oldest unanswered item of the signed-in user goes first; a later vote is
 *   not sent while an earlier one is backing off.
 * - Server answers: 2xx delivered; 409 already voted (resolved with the server's choice);
 *   401 kept as auth-required until the same user signs in again; other 4xx rejected with the
 *   server's message; no answer, 408, 429 and 5xx retried with exponential backoff and jitter,
 *   honouring Retry-After. Every terminal answer is written to `outcomes` and reported.
 */
import { messages, type MyVote } from "@evoting/shared";
import type { OutboxError, OutboxItem, OutboxOutcome, TerminalStatus } from "./db";
import { backoffDelay, bodyMessage, bodyVote, classify, type SendResult } from "./answers";
import { offlineText } from "./notices";
import type { OutboxStore } from "./outbox-store";
import { recordedVote } from "../lib/vote-body";

export { backoffDelay, parseRetryAfter, type SendResult } from "./answers";

export const OUTBOX_LOCK = "evoting-outbox";

/** Sends one item; throws when no answer came (offline, DNS, timeout). */
export type Send = (item: OutboxItem) => Promise<SendResult>;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The part of the Web Locks API the engine uses. */
export interface LockManagerLike {
  request<T>(name: string, options: { signal?: AbortSignal }, callback: (lock: unknown) => Promise<T>): Promise<T>;
}

export interface SyncEngineOptions {
  store: OutboxStore;
  send: Send;
  now?: () => number;
  random?: () => number;
  onOutcome?: (outcome: OutboxOutcome) => void;
  /** Used on 409 to learn which candidate the server holds for the position. */
  fetchMyVotes?: (userId: string) => Promise<MyVote[]>;
  /**
   * Only this user's votes are sent (a token belongs to one voter). Omit to send every user's
   * items (tests); return null when nobody is signed in to send nothing.
   */
  currentUserId?: () => string | null;
  /** Defaults to `navigator.locks` when present; null disables Web Locks. */
  locks?: LockManagerLike | null;
  timers?: Timers;
  /** How long a claim holds before another engine may take the item over. */
  leaseMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  engineId?: string;
}

export type SyncState = "idle" | "syncing" | "waiting" | "stopped";

export interface SyncStatus {
  state: SyncState;
  /** The signed-in user's unanswered votes (including auth-required ones). */
  pending: number;
  authRequired: number;
  /** When the engine will try again on its own, if it is waiting. */
  nextAttemptAt: number | null;
  lastError: OutboxError | null;
  lastOutcome: OutboxOutcome | null;
}

export interface KickOptions {
  /** Ignore our own backoff after a network failure (the connection is back, a new vote). */
  force?: boolean;
}

export interface SyncEngine {
  /** Replays whatever is waiting (app start). */
  start(): Promise<void>;
  /** Something changed (online, focus, new item): replay now. Resolves when that pass ends. */
  kick(options?: KickOptions): Promise<void>;
  /** Stops timers and waiting; an in-flight request still settles. */
  stop(): Promise<void>;
  /** The user signed in again: items held for a fresh token are sent. */
  resumeForUser(userId: string): Promise<void>;
  subscribe(listener: (status: SyncStatus) => void): () => void;
  getStatus(): SyncStatus;
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { store, send, onOutcome, fetchMyVotes, currentUserId } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const timers: Timers = options.timers ?? {
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  const locks =
    options.locks === undefined
      ? ((globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks ?? null)
      : options.locks;
  const leaseMs = options.leaseMs ?? 30_000;
  const baseDelayMs = options.baseDelayMs ?? 1_000;
  const maxDelayMs = options.maxDelayMs ?? 5 * 60_000;
  const engineId = options.engineId ?? crypto.randomUUID();

  let stopped = true;
  let running: Promise<void> | null = null;
  let rerun = false;
  let forceNext = false;
  let timer: unknown = null;
  let abort = new AbortController();
  const listeners = new Set<(status: SyncStatus) => void>();
  let status: SyncStatus = {
    state: "stopped",
    pending: 0,
    authRequired: 0,
    nextAttemptAt: null,
    lastError: null,
    lastOutcome: null,
  };

  function setStatus(patch: Partial<SyncStatus>) {
    status = { ...status, ...patch };
    for (const listener of listeners) listener(status);
  }

  function eligibleUser(): string | null | undefined {
    return currentUserId ? currentUserId() : undefined;
  }

  async function refreshCounts(): Promise<Pick<SyncStatus, "pending" | "authRequired">> {
    const user = eligibleUser();
    if (user === null) return { pending: 0, authRequired: 0 };
    const items = await store.pending(user);
    return { pending: items.length, authRequired: items.filter((i) => i.status === "auth-required").length };
  }

  function schedule(at: number | null) {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    if (at === null || stopped) return;
    timer = timers.setTimeout(() => {
      timer = null;
      void kickInternal(false);
    }, Math.max(0, at - now()));
  }

  /** One request; a request outliving its lease is abandoned (another tab may now own the item). */
  async function attempt(item: OutboxItem): Promise<SendResult | Error> {
    let timeout: unknown = null;
    try {
      return await Promise.race([
        send(item),
        new Promise<never>((_, reject) => {
          timeout = timers.setTimeout(() => reject(new Error("No answer before the claim expired")), leaseMs);
        }),
      ]);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    } finally {
      timers.clearTimeout(timeout);
    }
  }

  /** Moves an item to `outcomes` and updates the card's mark and the cached votes, in one step. */
  function finish(
    item: OutboxItem,
    status: TerminalStatus,
    httpStatus: number,
    message: string,
    recordedVote: MyVote | null,
    freshVotes: MyVote[] | null,
  ): Promise<OutboxOutcome | null> {
    return store.settle({ item, status, httpStatus, message, recordedVote, freshVotes, now: now() });
  }

  async function backOff(item: OutboxItem, error: OutboxError, retryAfterMs: number | null): Promise<number> {
    const jittered = backoffDelay(item.attempts, random(), baseDelayMs, maxDelayMs);
    const delay = retryAfterMs === null ? jittered : Math.max(retryAfterMs, jittered);
    const nextAttemptAt = now() + delay;
    await store.backOff(item, engineId, { nextAttemptAt, serverHold: retryAfterMs !== null, lastError: error });
    return nextAttemptAt;
  }

  async function myVoteFor(userId: string, positionId: string): Promise<{ vote: MyVote | null; all: MyVote[] | null }> {
    if (!fetchMyVotes) return { vote: null, all: null };
    try {
      const all = await fetchMyVotes(userId);
      return { vote: all.find((v) => v.positionId === positionId) ?? null, all };
    } catch {
      return { vote: null, all: null };
    }
  }

  function report(outcome: OutboxOutcome | null) {
    if (!outcome) return;
    setStatus({ lastOutcome: outcome, lastError: null });
    try {
      onOutcome?.(outcome);
    } catch (error) {
      console.error("onOutcome listener failed", error);
    }
  }

  /** Sends queue heads until the queue is empty or must wait; returns when to try again. */
  async function drain(force: boolean, exclusive: boolean): Promise<number | null> {
    const user = eligibleUser();
    if (user === null) return null;
    for (;;) {
      if (stopped) return null;
      const claim = await store.claimHead({ user, force, exclusive, engineId, leaseMs, now: now() });
      if (claim.kind === "empty") return null;
      if (claim.kind === "wait") return claim.until;
      const item = claim.item;
      const answer = classify(await attempt(item), now());

      switch (answer.kind) {
        case "delivered": {
          const vote = bodyVote(answer.body, item.positionId) ?? recordedVote(item.positionId, item);
          const message = bodyMessage(answer.body) ?? messages.castVoteSuccess;
          report(await finish(item, "delivered", answer.status, message, vote, null));
          break;
        }
        case "already-voted": {
          const fromBody = bodyVote(answer.body, item.positionId);
          const fetched = fromBody ? { vote: fromBody, all: null } : await myVoteFor(item.userId, item.positionId);
          report(await finish(item, "already-voted", answer.status, offlineText.notNeeded, fetched.vote, fetched.all));
          break;
        }
        case "rejected": {
          const message = bodyMessage(answer.body) ?? messages.castVoteFailed;
          report(await finish(item, "rejected", answer.status, message, null, null));
          break;
        }
        case "auth": {
          await store.holdForAuth(item, bodyMessage(answer.body) ?? messages.sessionExpired);
          setStatus({ lastError: { kind: "auth", httpStatus: 401, message: offlineText.signInToSend } });
          break; // the next head (if any) belongs to nobody eligible or waits likewise
        }
        case "retry": {
          const next = await backOff(item, answer.error, answer.retryAfterMs);
          setStatus({ lastError: answer.error });
          return next;
        }
      }
      setStatus(await refreshCounts());
      force = false; // a kick forces the first attempt only; later heads are fresh anyway
    }
  }

  async function pass(force: boolean) {
    setStatus({ state: "syncing", nextAttemptAt: null });
    let wakeAt: number | null;
    try {
      setStatus(await refreshCounts());
      if (locks) {
        wakeAt = await locks.request(OUTBOX_LOCK, { signal: abort.signal }, () => drain(force, true));
      } else {
        wakeAt = await drain(force, false);
      }
    } catch (error) {
      if (stopped) return;
      // IndexedDB trouble (quota, a blocked upgrade): try again later rather than give up.
      console.error("Outbox replay failed", error);
      wakeAt = now() + maxDelayMs;
    }
    const counts = await refreshCounts().catch(() => ({ pending: status.pending, authRequired: status.authRequired }));
    if (stopped) {
      setStatus({ state: "stopped", nextAttemptAt: null, ...counts });
      return;
    }
    schedule(wakeAt);
    const waiting = counts.pending > counts.authRequired;
    setStatus({ state: waiting ? "waiting" : "idle", nextAttemptAt: wakeAt, ...counts });
  }

  function kickInternal(force: boolean): Promise<void> {
    if (stopped) return Promise.resolve();
    if (force) forceNext = true;
    if (running) {
      rerun = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          rerun = false;
          const f = forceNext;
          forceNext = false;
          await pass(f);
        } while (rerun && !stopped);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    start() {
      if (!stopped) return kickInternal(true);
      stopped = false;
      abort = new AbortController();
      return kickInternal(true);
    },
    kick(kickOptions: KickOptions = {}) {
      return kickInternal(kickOptions.force ?? true);
    },
    async stop() {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      abort.abort();
      await running?.catch(() => undefined);
      setStatus({ state: "stopped", nextAttemptAt: null });
    },
    async resumeForUser(userId: string) {
      await store.resume(userId);
      await kickInternal(true);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getStatus: () => status,
  };
}
