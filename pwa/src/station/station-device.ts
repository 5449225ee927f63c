/**
 * What the station screen does, without React: open the station (session, key, package,
 * photos), cast a ballot (seal, queue, deliver), and the look-up over the stored roll.
 */
import { isEligible, matricSearchKey, positionStatus, seededBallotOrder, type BallotPosition, type RollEntry, type StationChoice } from "@evoting/shared";
import { prefetchPhotos } from "../offline/photos";
import { stationApi, type DevicePackage } from "./station-api";
import { session } from "../auth/session";
import { sealBallot } from "./station-crypto";
import { stationLink } from "./station-link";
import { queueBallot, stationDb, type StationDB, type StoredPackage } from "./station-db";
import { stationSession } from "./station-session";
import { flushStationQueue } from "./station-sync";

const photoUrls = (positions: readonly BallotPosition[]) =>
  [...new Set(positions.flatMap((p) => p.candidates.map((c) => c.photo)).filter((u): u is string => Boolean(u)))];

/** Candidate photos not yet in the service worker's cache: the station is not ready while any is missing. */
export async function missingPhotos(positions: readonly BallotPosition[]): Promise<number> {
  const urls = photoUrls(positions);
  if (urls.length === 0) return 0;
  if (typeof caches === "undefined") return urls.length;
  const found = await Promise.all(urls.map((url) => caches.match(url)));
  return found.filter((r) => !r).length;
}

/** Downloads the package for the open session and stores it; resolves with the photos still missing. */
export async function refreshPackage(db: StationDB = stationDb()): Promise<{ stored: StoredPackage; missing: number }> {
  const live = stationSession.get();
  if (!live) throw new Error("The station is not open");
  const data = await stationApi.package(live.sessionId);
  const stored: StoredPackage = { stationId: live.station._id, data, savedAt: Date.now() };
  await db.packages.put(stored);
  await prefetchPhotos(data.positions);
  return { stored, missing: await missingPhotos(data.positions) };
}

/**
 * Opens a station on this device: the officer's password again (the server checks it; a token
 * alone opens nothing), then the device's station token in place of the sign-in's, the key,
 * wrapped under that password for after a reload, and the package.
 */
export async function openStation(stationId: string, password: string, db: StationDB = stationDb()) {
  const user = session.user();
  const officer = user?.matricNumber;
  if (!user || !officer) throw new Error("Not signed in");
  const info = await stationApi.open(stationId, password);
  // The server revoked the sign-in token that opened the station: from now on the device holds
  // only its station token, which reaches nothing but the station routes.
  session.signIn(info.token, user, { stationDevice: true });
  await stationSession.open(
    {
      sessionId: info.sessionId,
      station: info.station,
      clockOffset: Date.parse(info.serverTime) - Date.now(),
      expiresAt: Date.parse(info.expiresAt),
      officer,
    },
    info.key,
    password,
  );
  stationLink.clearEnded();
  return refreshPackage(db);
}

/**
 * Closing the station on this device: the key is forgotten; queued ballots stay and are still
 * delivered. The server is told which of this session's ballots the device still holds: after
 * the close only those can count.
 */
export async function closeStation(db: StationDB = stationDb()) {
  const live = stationSession.get();
  stationSession.end();
  if (!live) return;
  const pending = (await db.queue.toArray()).filter((q) => q.sealed.sessionId === live.sessionId).map((q) => q.ballotId);
  await stationApi.close(live.sessionId, pending).catch(() => undefined);
}

/** The seed a ballot is ordered by: only when the election's ballot order is 'random'. */
export const ballotOrderSeedOf = (pkg: Pick<DevicePackage, "election" | "ballotOrderSeed">): string | null =>
  pkg.election?.ballotOrder === "random" && pkg.ballotOrderSeed ? pkg.ballotOrderSeed : null;

/**
 * Positions this voter may still vote for here, at server time `now`; with an `orderSeed`, the
 * candidates in the voter's own stable order (shared ballot-order.ts), otherwise creation order.
 */
export function ballotFor(voter: RollEntry, positions: readonly BallotPosition[], now: number, orderSeed: string | null = null): BallotPosition[] {
  const open = positions.filter(
    (p) =>
      isEligible(p.eligibleGroups ?? [], voter.groups) &&
      !voter.voted.includes(p._id) &&
      positionStatus(now, Date.parse(p.startTime), Date.parse(p.endTime)) === "active",
  );
  return orderSeed ? seededBallotOrder(open, orderSeed, voter._id) : open;
}

/** How long starting a ballot waits for the server's word on a voter before using the package's. */
const FRESH_LOOKUP_MS = 3_000;

/**
 * The voter as the server knows them now (a phone vote since the package was made), when the
 * network allows; otherwise as the package has them. The server refuses a second vote anyway.
 */
export async function freshVoter(voter: RollEntry): Promise<RollEntry> {
  const live = stationSession.get();
  if (!live || !navigator.onLine) return voter;
  try {
    const found = await stationApi.lookUp(live.sessionId, voter.matricNumber, AbortSignal.timeout(FRESH_LOOKUP_MS));
    return found.find((v) => v._id === voter._id) ?? voter;
  } catch {
    return voter;
  }
}

/** Look-up by any part of the matriculation number (separators ignored) or of the name. */
export function lookUp(roll: readonly RollEntry[], query: string, limit = 20): RollEntry[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const key = matricSearchKey(q);
  return roll.filter((v) => (key !== "" && matricSearchKey(v.matricNumber).includes(key)) || v.name.toLowerCase().includes(q)).slice(0, limit);
}

/**
 * Seals the voter's choices with the in-memory key and queues them with the voter marked as
 * served (one transaction), then starts delivery. The choices exist only in this call.
 */
export async function castStationBallot(voter: RollEntry, choices: StationChoice[], db: StationDB = stationDb()): Promise<string> {
  const live = stationSession.get();
  if (!live) throw new Error("The station is not open");
  const castAt = stationSession.now();
  const ballotId = crypto.randomUUID();
  const sealed = await sealBallot(live.key, live.sessionId, { v: 1, ballotId, voterId: voter._id, castAt, choices });
  await queueBallot(db, {
    ballotId,
    stationId: live.station._id,
    sealed,
    voter: { id: voter._id, matricNumber: voter.matricNumber, name: voter.name },
    queuedAt: Date.now(),
    attempts: 0,
  });
  void flushStationQueue();
  return ballotId;
}
