/**
 * Delivering queued station ballots, exactly once: each ballot is sent with its own id as
 * Idempotency-Key, so a ballot the server took before a lost answer is answered again, not
 * counted again; it leaves the queue only in the same transaction that records its answer.
 * One flight at a time (a second call joins the running one); the first network failure ends
 * the pass and the next trigger (online event, timer, new ballot) starts another.
 */
import { messages, type StationBallotAnswer } from "@evoting/shared";
import { ApiRequestError } from "../api/client";
import { liveQuery } from "../offline/idb";
import { stationApi } from "./station-api";
import { stationDb, type QueuedBallot, type StationDB } from "./station-db";
import { stationSession } from "./station-session";

export interface SyncDeps {
  db: StationDB;
  deliver: (ballotId: string, sealed: QueuedBallot["sealed"]) => Promise<StationBallotAnswer>;
  now: () => number;
}

const defaults = (): SyncDeps => ({ db: stationDb(), deliver: stationApi.deliver, now: Date.now });

/** Final answers: the ballot will never be taken, however often it is sent (station revoked, forged...). */
const isFinal = (error: unknown) =>
  error instanceof ApiRequestError && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 408 && error.status !== 429;

async function settle(db: StationDB, item: QueuedBallot, answer: StationBallotAnswer, at: number) {
  await db.transaction("rw", ["queue", "refusals", "delivered"], async (tx) => {
    await tx.queue.delete(item.ballotId);
    await tx.delivered.put({ ballotId: item.ballotId, stationId: item.stationId, counted: answer.outcomes.filter((o) => o.counted).length, at });
    for (const o of answer.outcomes.filter((x) => !x.counted)) {
      await tx.refusals.put({
        id: `${item.ballotId}:${o.positionId}`,
        stationId: item.stationId,
        voter: answer.voter,
        positionTitle: o.positionTitle,
        message: o.message,
        at,
      });
    }
  });
}

async function refuseWhole(db: StationDB, item: QueuedBallot, message: string, at: number) {
  // A revoked station must stop taking ballots as soon as the device hears of it.
  if (message === messages.stationRevoked && stationSession.get()?.station._id === item.stationId) stationSession.set(null);
  await db.transaction("rw", ["queue", "refusals"], async (tx) => {
    await tx.queue.delete(item.ballotId);
    const { matricNumber, name } = item.voter;
    await tx.refusals.put({ id: `${item.ballotId}:*`, stationId: item.stationId, voter: { matricNumber, name }, positionTitle: "", message, at });
  });
}

async function pass(deps: SyncDeps): Promise<void> {
  const items = await deps.db.queue.orderBy("queuedAt").toArray();
  for (const item of items) {
    try {
      const answer = await deps.deliver(item.ballotId, item.sealed);
      await settle(deps.db, item, answer, deps.now());
    } catch (error) {
      if (isFinal(error)) {
        await refuseWhole(deps.db, item, (error as ApiRequestError).message, deps.now());
        continue;
      }
      await deps.db.queue.update(item.ballotId, { attempts: item.attempts + 1 });
      return; // offline, server busy or signed out: the next trigger tries again
    }
  }
}

let running: Promise<void> | null = null;

export function flushStationQueue(deps: SyncDeps = defaults()): Promise<void> {
  running ??= pass(deps).finally(() => {
    running = null;
  });
  return running;
}

/** Queue length and refusals for the screen, live. */
export const watchQueue = (db: StationDB = stationDb()) => liveQuery(db, ["queue"], () => db.queue.count());
export const watchRefusals = (stationId: string, db: StationDB = stationDb()) =>
  liveQuery(db, ["refusals"], () => db.refusals.where("stationId").equals(stationId).reverse().sortBy("at"));
export const watchServed = (db: StationDB = stationDb()) => liveQuery(db, ["served"], async () => new Set((await db.served.toArray()).map((s) => s.voterId)));
