/**
 * Delivering queued station ballots, exactly once: each ballot is sent with its own id as
 * Idempotency-Key, so a ballot the server took before a lost answer is answered again, not
 * counted again; it leaves the queue only in the same transaction that records its answer.
 *
 * A ballot leaves the device only when the server has decided it: counted, or refused for
 * its own reason (already voted, not eligible, its station revoked, cast outside an
 * officer's sign-in: all come back as an answer), or a ballot that can never be decided (an
 * envelope that can never open; a device reported lost, once the results are declared). Every
 * other failure (no network, the wrong person signed in, server busy) keeps it queued with
 * the reason shown, until an officer of its station delivers it or an admin imports it.
 *
 * One flight at a time (a second call joins the running one); a failure that is about the
 * connection ends the pass and the next trigger (online event, timer, new ballot) starts another.
 */
import { messages, type StationBallotAnswer } from "@evoting/shared";
import { ApiRequestError } from "../api/client";
import { liveQuery } from "dexie";
import { stationApi } from "./station-api";
import { stationDb, type QueuedBallot, type StationDB } from "./station-db";
import { heardFrom, stationLink } from "./station-link";

export interface SyncDeps {
  db: StationDB;
  deliver: (ballotId: string, sealed: QueuedBallot["sealed"]) => Promise<StationBallotAnswer>;
  now: () => number;
}

const defaults = (): SyncDeps => ({ db: stationDb(), deliver: stationApi.deliver, now: Date.now });

/** Shown for a ballot kept because the server could not be reached. */
export const NO_NETWORK = "Waiting for the network";

/**
 * The answers without a decision that still let a ballot go, listed as refused: no delivery can
 * ever decide it (its envelope can never be opened; its device was reported lost and the results
 * are declared, so the committee can no longer decide it).
 */
const isNeverDecided = (error: unknown) =>
  error instanceof ApiRequestError &&
  ((error.status === 400 && error.message === messages.stationBallotInvalid) || (error.status === 409 && error.message === messages.stationBallotHeldTooLate));

/** Answers about this request, not the ballot: the next ballot may fare differently, so the pass goes on. */
const isAboutTheBallot = (error: ApiRequestError) => error.status === 403 || error.status === 404 || error.status === 400;

async function settle(db: StationDB, item: QueuedBallot, answer: StationBallotAnswer, at: number) {
  // The device's own label for the voter: a voter the server no longer has still has a name here.
  const voter = { matricNumber: item.voter.matricNumber, name: item.voter.name };
  await db.transaction("rw", ["queue", "refusals", "delivered"], async (tx) => {
    await tx.queue.delete(item.ballotId);
    await tx.delivered.put({ ballotId: item.ballotId, stationId: item.stationId, counted: answer.outcomes.filter((o) => o.counted).length, at });
    for (const o of answer.outcomes.filter((x) => !x.counted)) {
      await tx.refusals.put({ id: `${item.ballotId}:${o.positionId}`, stationId: item.stationId, voter, positionTitle: o.positionTitle, message: o.message, at });
    }
  });
  const revoked = answer.outcomes.find((o) => o.message === messages.stationRevoked);
  if (revoked) stationLink.ended(item.stationId, revoked.message);
}

async function refuseWhole(db: StationDB, item: QueuedBallot, message: string, at: number) {
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
      stationLink.heard(true);
      await settle(deps.db, item, answer, deps.now());
    } catch (error) {
      if (isNeverDecided(error)) {
        stationLink.heard(true);
        await refuseWhole(deps.db, item, (error as ApiRequestError).message, deps.now());
        continue;
      }
      const answered = heardFrom(error);
      await deps.db.queue.update(item.ballotId, { attempts: item.attempts + 1, waiting: answered ? error.message : NO_NETWORK });
      if (answered) stationLink.ended(item.stationId, error.message);
      if (answered && isAboutTheBallot(error)) continue;
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

/** The queue (oldest first) and every refusal on this device, live, for the screen. */
export const watchQueue = (db: StationDB = stationDb()) => liveQuery(() => db.queue.orderBy("queuedAt").toArray());
export const watchRefusals = (db: StationDB = stationDb()) => liveQuery(() => db.refusals.orderBy("at").reverse().toArray());
export const watchServed = (db: StationDB = stationDb()) => liveQuery(async () => new Set((await db.served.toArray()).map((s) => s.voterId)));
