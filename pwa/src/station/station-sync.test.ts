/** The station device without React: sealing, one ballot per voter, exactly-once delivery, refusals. */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import { STATION_BALLOT_BLOCK, type StationBallotAnswer } from "@evoting/shared";
import { ApiRequestError } from "../api/client";
import { importSessionKey, sealBallot } from "./station-crypto";
import { AlreadyServedError, openStationDb, queueBallot, type QueuedBallot } from "./station-db";
import { stationSession } from "./station-session";
import { flushStationQueue, type SyncDeps } from "./station-sync";

const RAW = "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA"; // 32 bytes, base64url
const freshDb = () => openStationDb(`station-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
const fromB64u = (s: string) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4)), (c) => c.charCodeAt(0));

async function sealed(voterId: string) {
  const key = await importSessionKey(RAW);
  const ballotId = crypto.randomUUID();
  const s = await sealBallot(key, "session-1", { v: 1, ballotId, voterId, castAt: 1, choices: [{ positionId: "p1", kind: "candidate", candidateId: "candidate-ada-7f3e" }] });
  const item: QueuedBallot = { ballotId, stationId: "st", sealed: s, voter: { id: voterId, matricNumber: `2020/5570${voterId}`, name: `Voter ${voterId}` }, queuedAt: Date.now(), attempts: 0 };
  return item;
}

const answer = (item: QueuedBallot, counted: boolean): StationBallotAnswer => ({
  ballotId: item.ballotId,
  voter: { matricNumber: item.voter.matricNumber, name: item.voter.name },
  outcomes: [{ positionId: "p1", positionTitle: "President", counted, message: counted ? "Counted" : "Already voted for this position elsewhere" }],
});

describe("station device", () => {
  it("seals a padded ballot only the key holder can open, and the key cannot be exported", async () => {
    const item = await sealed("001");
    const key = await importSessionKey(RAW);
    await expect(crypto.subtle.exportKey("raw", key)).rejects.toThrow();
    const opener = await crypto.subtle.importKey("raw", fromB64u(RAW), { name: "AES-GCM" }, false, ["decrypt"]);
    const plain = new Uint8Array(
      await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromB64u(item.sealed.iv), additionalData: new TextEncoder().encode("session-1") }, opener, fromB64u(item.sealed.data)),
    );
    expect(plain.length % STATION_BALLOT_BLOCK).toBe(0);
    expect(JSON.parse(new TextDecoder().decode(plain))).toMatchObject({ voterId: "001", choices: [{ candidateId: "candidate-ada-7f3e" }] });
    expect(JSON.stringify(item)).not.toContain("candidate-ada");
  });

  it("never queues a second ballot for the same voter", async () => {
    const db = freshDb();
    await queueBallot(db, await sealed("001"));
    await expect(queueBallot(db, await sealed("001"))).rejects.toBeInstanceOf(AlreadyServedError);
    expect(await db.queue.count()).toBe(1);
  });

  it("delivers each ballot exactly once through outages, and keeps the refusals", async () => {
    const db = freshDb();
    const a = await sealed("001");
    const b = { ...(await sealed("002")), queuedAt: a.queuedAt + 1 }; // queue order
    await queueBallot(db, a);
    await queueBallot(db, b);
    let online = false;
    const deliver = vi.fn(async (ballotId: string) => {
      if (!online) throw new TypeError("Failed to fetch");
      return ballotId === a.ballotId ? answer(a, true) : answer(b, false);
    });
    const deps: SyncDeps = { db, deliver, now: () => 5 };
    await flushStationQueue(deps);
    expect(await db.queue.count()).toBe(2);
    online = true;
    await Promise.all([flushStationQueue(deps), flushStationQueue(deps)]); // one flight
    expect(deliver.mock.calls.map((c) => c[0])).toEqual([a.ballotId, a.ballotId, b.ballotId]);
    expect(await db.queue.count()).toBe(0);
    const refusals = await db.refusals.toArray();
    expect(refusals).toEqual([expect.objectContaining({ voter: { matricNumber: "2020/5570002", name: "Voter 002" }, positionTitle: "President" })]);
    await flushStationQueue(deps);
    expect(deliver).toHaveBeenCalledTimes(3);
  });

  it("records a ballot the server will never take (station revoked) as refused, whole, and closes the station", async () => {
    const db = freshDb();
    const a = await sealed("001");
    await queueBallot(db, a);
    const deliver = vi.fn(async () => {
      throw new ApiRequestError(403, "This polling station has been revoked", true);
    });
    stationSession.set({ sessionId: "session-1", key: await importSessionKey(RAW), station: { _id: "st", name: "Hall" }, clockOffset: 0, expiresAt: Infinity });
    await flushStationQueue({ db, deliver, now: () => 5 });
    expect(stationSession.get()).toBeNull(); // the device stops taking ballots
    expect(await db.queue.count()).toBe(0);
    expect(await db.refusals.toArray()).toEqual([expect.objectContaining({ positionTitle: "", message: "This polling station has been revoked" })]);
  });
});
