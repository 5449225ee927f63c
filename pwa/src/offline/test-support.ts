/**
 * Test helpers for the offline module: a private in-memory IndexedDB per test, a manual clock
 * that also drives the engine's timers, a controllable fake server, a Web Locks stand-in, and an
 * outbox kept in memory for the engine's own tests.
 * Imported only by `*.test.ts` files.
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { evotingDb, type CacheEntry, type OutboxItem, type OutboxOutcome, type PositionMark } from "./db";
import { authHold, claimFrom, resumed, retryPatch, settledRows, votesAfter, type OutboxStore } from "./outbox-store";
import type { LockManagerLike, SendResult, Timers } from "./sync";
import { vi } from "vitest";
import { session } from "../auth/session";
import { outboxHttp } from "./app/runtime";
import type { OutboxHttp } from "./install";

/** A fresh, empty IndexedDB; call `open()` again for a second tab on the same database. */
export function memoryIndexedDb() {
  const indexedDB = new IDBFactory();
  return { open: (name = "evoting-test") => evotingDb(name, { indexedDB, IDBKeyRange }) };
}

export function manualClock(start = Date.UTC(2025, 6, 4, 10, 0, 0)) {
  let t = start;
  let nextId = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    setTimeout(fn, ms) {
      const id = nextId++;
      pending.set(id, { at: t + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    now: () => t,
    timers,
    /** The earliest scheduled wake-up, if any. */
    nextTimerAt: () => (pending.size ? Math.min(...[...pending.values()].map((p) => p.at)) : null),
    /** Moves time forward, firing timers that fall due (in order). */
    advance(ms: number) {
      const target = t + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, p]) => p.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        t = Math.max(t, due[1].at);
        due[1].fn();
      }
      t = target;
    },
  };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export type Reply = SendResult | Error | ((item: OutboxItem) => SendResult | Error | Promise<SendResult | Error>);

/**
 * A scripted server: replies are taken in order (the last one repeats); records every call and
 * the most requests it ever had in flight at once.
 */
export function fakeServer(...replies: Reply[]) {
  const calls: OutboxItem[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const script = [...replies];
  const send = async (item: OutboxItem): Promise<SendResult> => {
    calls.push(structuredClone(item));
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const next = script.length > 1 ? script.shift()! : script[0];
      const reply = typeof next === "function" ? await next(item) : next;
      // Let other tabs' work interleave, as a real request would.
      await new Promise((r) => setTimeout(r, 1));
      if (reply instanceof Error) throw reply;
      return reply;
    } finally {
      inFlight--;
    }
  };
  return {
    send,
    calls,
    get maxInFlight() {
      return maxInFlight;
    },
    push: (...more: Reply[]) => script.push(...more),
  };
}

export const created = (item: OutboxItem): SendResult => ({
  status: 201,
  body: {
    message: "Vote cast successfully!",
    vote: { positionId: item.positionId, candidateId: item.candidateId, candidateName: item.candidateName },
  },
});

/** Web Locks with one shared queue per "browser": callbacks run one at a time. */
export function fakeLocks(): LockManagerLike & { held: () => boolean } {
  let tail: Promise<unknown> = Promise.resolve();
  let holding = false;
  return {
    request(_name, _options, callback) {
      const run = tail.then(async () => {
        holding = true;
        try {
          return await callback({});
        } finally {
          holding = false;
        }
      });
      tail = run.catch(() => undefined);
      return run;
    },
    held: () => holding,
  };
}

/**
 * The outbox in memory, applying the same rules as the IndexedDB one (outbox-store.ts): the
 * sync engine's scheduling, locks and draining are tested against it with no database at all.
 */
export function memoryOutbox() {
  const outbox = new Map<number, OutboxItem>();
  const outcomes = new Map<string, OutboxOutcome>();
  const marks = new Map<string, PositionMark>();
  const votes = new Map<string, CacheEntry>();
  let nextId = 1;
  const inOrder = () => [...outbox.values()].sort((a, b) => a.id! - b.id!);
  const store: OutboxStore = {
    pending: async (user) => inOrder().filter((i) => user === undefined || i.userId === user),
    async claimHead(request) {
      const claim = claimFrom(inOrder(), request);
      if (claim.kind === "item") outbox.set(claim.item.id!, claim.item);
      return claim;
    },
    async settle(s) {
      const current = outbox.get(s.item.id!);
      if (!current) return null;
      const { outcome, mark } = settledRows(current, s);
      outbox.delete(current.id!);
      outcomes.set(outcome.key, outcome);
      marks.set(`${mark.userId}/${mark.positionId}`, mark);
      const after = votesAfter(votes.get(s.item.userId), s);
      if (after) votes.set(s.item.userId, after);
      return outcome;
    },
    async holdForAuth(item, message) {
      for (const other of inOrder()) {
        if (other.userId === item.userId && (other.id === item.id || other.status === "queued")) outbox.set(other.id!, { ...other, ...authHold(message) });
      }
    },
    async backOff(item, engineId, retry) {
      const current = outbox.get(item.id!);
      if (current?.leaseOwner === engineId) outbox.set(current.id!, { ...current, ...retryPatch(retry) });
    },
    async resume(userId) {
      for (const item of inOrder()) if (item.userId === userId && item.status === "auth-required") outbox.set(item.id!, { ...item, ...resumed });
    },
  };
  return {
    store,
    outbox,
    outcomes,
    marks,
    /** Queues a vote as the outbox would (no duplicate checks: those belong to queueVote). */
    queue(vote: Pick<OutboxItem, "userId" | "positionId" | "candidateId" | "candidateName">): OutboxItem {
      const id = nextId++;
      const item: OutboxItem = { ...vote, id, key: `key-${id}`, status: "queued", attempts: 0, queuedAt: 0, nextAttemptAt: 0, serverHold: false, lastError: null, leaseOwner: null, leaseUntil: 0 };
      outbox.set(id, item);
      return item;
    },
  };
}

/**
 * The outbox's HTTP as the app gives it (the app's API client, api/client.ts) over `fetchImpl`,
 * signed in with `token` when there is one: tests see the requests the app really sends.
 */
export function appHttpOver(fetchImpl: typeof fetch, token: string | null, userId = "u1"): OutboxHttp {
  vi.stubGlobal("fetch", fetchImpl);
  if (token) signInAs(token, userId);
  return outboxHttp;
}

/** Signs the app's session in as `userId` with `token`. */
export function signInAs(token: string, userId: string): void {
  session.signIn(token, { _id: userId, name: userId, role: "voter", matricNumber: "2021/5570101", email: null, hasPassword: false });
}
