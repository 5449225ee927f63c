/** The station device without React: sealing, one ballot per voter, exactly-once delivery, refusals. */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import { STATION_BALLOT_BLOCK, messages, type StationBallotAnswer } from "@evoting/shared";
import { ApiRequestError } from "../api/client";
import { importSessionKey, sealBallot } from "./station-crypto";
import { AlreadyServedError, openStationDb, queueBallot, type QueuedBallot } from "./station-db";
import { stationSession, WrongPasswordError } from "./station-session";
import { stationLink } from "./station-link";
import { flushStationQueue, NO_NETWORK, type SyncDeps } from "./station-sync";
import { lookUp } from "./station-device";

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

  it("lets a ballot go only when the server decided it; every other answer keeps it, with the reason", async () => {
    const db = freshDb();
    const [counted, votedElsewhere, revoked, wrongOfficer, unreadable, unreachable] = await Promise.all(["001", "002", "003", "004", "005", "006"].map(sealed));
    let t = 0;
    for (const item of [counted, votedElsewhere, revoked, wrongOfficer, unreadable, unreachable]) await queueBallot(db, { ...item, queuedAt: ++t });
    const whole = (item: QueuedBallot, message: string): StationBallotAnswer => ({ ...answer(item, false), outcomes: [{ positionId: "p1", positionTitle: "President", counted: false, message }] });
    const deliver = vi.fn(async (ballotId: string) => {
      if (ballotId === counted.ballotId) return answer(counted, true);
      if (ballotId === votedElsewhere.ballotId) return answer(votedElsewhere, false); // refused for its own reason
      if (ballotId === revoked.ballotId) return whole(revoked, messages.stationRevoked);
      if (ballotId === wrongOfficer.ballotId) throw new ApiRequestError(403, messages.stationNotAssigned, true);
      if (ballotId === unreadable.ballotId) throw new ApiRequestError(400, messages.stationBallotInvalid, true);
      throw new TypeError("Failed to fetch");
    });
    stationSession.set({ sessionId: "session-1", key: await importSessionKey(RAW), station: { _id: "st", name: "Hall" }, clockOffset: 0, expiresAt: Infinity, officer: "2019/5570777" });
    await flushStationQueue({ db, deliver, now: () => 5 });

    const kept = await db.queue.orderBy("queuedAt").toArray();
    expect(kept.map((q) => [q.voter.id, q.waiting])).toEqual([
      ["004", messages.stationNotAssigned],
      ["006", NO_NETWORK],
    ]);
    const refusals = (await db.refusals.toArray()).map((r) => [r.voter.name, r.message]).sort();
    expect(refusals).toEqual([
      ["Voter 002", "Already voted for this position elsewhere"],
      ["Voter 003", messages.stationRevoked],
      ["Voter 005", messages.stationBallotInvalid],
    ]);
    // Hearing its station was revoked, the device stops taking ballots for it, and says why.
    expect(stationSession.get()).toBeNull();
    expect(stationLink.get().ended).toEqual({ stationId: "st", message: messages.stationRevoked });

    // The right officer signs in and the network is back: the two kept ballots are delivered.
    deliver.mockImplementation(async (ballotId: string) => answer(ballotId === wrongOfficer.ballotId ? wrongOfficer : unreachable, true));
    await flushStationQueue({ db, deliver, now: () => 6 });
    expect(await db.queue.count()).toBe(0);
    expect((await db.delivered.toArray()).filter((d) => d.counted === 1)).toHaveLength(3);
  });

  it("lets go, listed as refused, a lost device's ballot the server can no longer hold once the results are declared, and goes on", async () => {
    const db = freshDb();
    const [late, next] = await Promise.all(["001", "002"].map(sealed));
    await queueBallot(db, { ...late, queuedAt: 1 });
    await queueBallot(db, { ...next, queuedAt: 2 });
    const deliver = vi.fn(async (ballotId: string) => {
      if (ballotId === late.ballotId) throw new ApiRequestError(409, messages.stationBallotHeldTooLate, true);
      return answer(next, true);
    });
    await flushStationQueue({ db, deliver, now: () => 5 });
    expect(await db.queue.count()).toBe(0);
    expect((await db.refusals.toArray()).map((r) => [r.voter.name, r.message])).toEqual([["Voter 001", messages.stationBallotHeldTooLate]]);
    expect(deliver).toHaveBeenCalledTimes(2);
  });

  it("a network error ends the pass: nothing behind it is tried until the next one", async () => {
    const db = freshDb();
    const [a, b] = await Promise.all(["001", "002"].map(sealed));
    await queueBallot(db, { ...a, queuedAt: 1 });
    await queueBallot(db, { ...b, queuedAt: 2 });
    const deliver = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    await flushStationQueue({ db, deliver, now: () => 5 });
    expect(deliver).toHaveBeenCalledTimes(1);
    expect(stationLink.get().reachable).toBe(false);
    expect(await db.queue.count()).toBe(2);
  });
});

describe("the look-up", () => {
  const roll = [{ _id: "1", matricNumber: "2021/5570101", name: "Ada Obi", groups: [], voted: [] }, { _id: "2", matricNumber: "2021/5570202", name: "Bola Ade", groups: [], voted: [] }];
  it("finds a matric by any part of it, separators ignored, and a name by any part", () => {
    for (const query of ["5570101", "2021-5570101", "20215570101", "2021/5570101", "0101"]) expect(lookUp(roll, query).map((v) => v._id)).toEqual(["1"]);
    expect(lookUp(roll, "ade").map((v) => v._id)).toEqual(["2"]);
    expect(lookUp(roll, "-")).toEqual([]);
  });
});

describe("the station key on the device", () => {
  const info = { sessionId: "session-9", station: { _id: "st9", name: "Hall 9" }, clockOffset: 0, expiresAt: Infinity, officer: "2019/5570777" };

  it("is kept only wrapped under the officer's password, and unlocks after a reload with it, offline", async () => {
    localStorage.clear();
    await stationSession.open(info, RAW, "officer-pass");
    const stored = JSON.stringify({ ...localStorage });
    expect(stored).not.toContain(RAW);
    expect(stored).not.toContain("officer-pass");
    stationSession.lock(); // as a reload leaves it: nothing in memory
    expect(stationSession.get()).toBeNull();
    expect(stationSession.locked()).toEqual({ station: info.station, officer: info.officer });
    await expect(stationSession.unlock("not-it")).rejects.toBeInstanceOf(WrongPasswordError);
    await stationSession.unlock("officer-pass");
    const live = stationSession.get()!;
    await expect(crypto.subtle.exportKey("raw", live.key)).rejects.toThrow();
    // The unlocked key seals ballots the server's copy of the key opens.
    const item = await sealBallot(live.key, info.sessionId, { v: 1, ballotId: "b", voterId: "v", castAt: 1, choices: [] });
    const opener = await crypto.subtle.importKey("raw", fromB64u(RAW), { name: "AES-GCM" }, false, ["decrypt"]);
    await expect(crypto.subtle.decrypt({ name: "AES-GCM", iv: fromB64u(item.iv), additionalData: new TextEncoder().encode(info.sessionId) }, opener, fromB64u(item.data))).resolves.toBeDefined();
  });

  it("drops the station after five wrong passwords in a row", async () => {
    localStorage.clear();
    await stationSession.open(info, RAW, "officer-pass");
    stationSession.lock();
    for (let i = 0; i < 5; i++) await expect(stationSession.unlock(`wrong-${i}`)).rejects.toBeInstanceOf(WrongPasswordError);
    expect(stationSession.locked()).toBeNull();
    await expect(stationSession.unlock("officer-pass")).rejects.toThrow();
  });
});
