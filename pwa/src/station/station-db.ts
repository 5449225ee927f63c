/**
 * The station device's own database (IndexedDB "evoting-station", apart from the voter's
 * "evoting" so a shared browser never mixes the two). No React here.
 *
 * | table       | key                 | holds                                                        |
 * |-------------|---------------------|--------------------------------------------------------------|
 * | `packages`  | stationId           | what the station needs to work alone: positions, candidates, |
 * |             |                     | the roll (no date of birth), with `savedAt`                  |
 * | `queue`     | ballotId            | ballots not yet answered: SEALED (AES-GCM; the key is in     |
 * |             |                     | memory, wrapped under the officer's password on disk) plus   |
 * |             |                     | who the voter is and why it waits, never their choices       |
 * | `served`    | voterId             | voters who voted on this device: never a second ballot      |
 * | `refusals`  | id (ballot:position)| positions the server refused: voter and position, no choice  |
 * | `delivered` | ballotId            | ballots the server answered, for the officer's counts        |
 */
import Dexie, { type Table } from "dexie";
import { closeWhileHidden, type IndexedDbFactory } from "../offline/device-db";
import type { SealedStationBallot } from "@evoting/shared";
import type { DevicePackage } from "./station-api";

export interface StoredPackage {
  stationId: string;
  data: DevicePackage;
  /** Epoch ms (device clock) when the server gave us this copy. */
  savedAt: number;
}

export interface StationVoter {
  id: string;
  matricNumber: string;
  name: string;
}

export interface QueuedBallot {
  ballotId: string;
  stationId: string;
  sealed: SealedStationBallot;
  voter: StationVoter;
  queuedAt: number;
  attempts: number;
  /** Why the last delivery did not settle it (no network, not an officer of its station...). */
  waiting?: string;
}

export interface ServedVoter {
  voterId: string;
  stationId: string;
  ballotId: string;
  at: number;
}

export interface StationRefusal {
  id: string;
  stationId: string;
  voter: Omit<StationVoter, "id">;
  positionTitle: string;
  message: string;
  at: number;
}

export interface DeliveredBallot {
  ballotId: string;
  stationId: string;
  counted: number;
  at: number;
}

export class StationDB extends Dexie {
  packages!: Table<StoredPackage, string>;
  queue!: Table<QueuedBallot, string>;
  served!: Table<ServedVoter, string>;
  refusals!: Table<StationRefusal, string>;
  delivered!: Table<DeliveredBallot, string>;

  constructor(name = "evoting-station", factory?: IndexedDbFactory) {
    super(name, factory);
    // Version 1 (IndexedDB's 10), as stations hold it. A schema change adds a new version.
    this.version(1).stores({
      packages: "stationId",
      queue: "ballotId, queuedAt",
      served: "voterId",
      refusals: "id, stationId, at",
      delivered: "ballotId, stationId",
    });
  }
}

/** The station's database, or (tests) one of another name in a private IndexedDB. */
export function openStationDb(name = "evoting-station", factory?: IndexedDbFactory): StationDB {
  return new StationDB(name, factory);
}

let shared: StationDB | null = null;

export function stationDb(): StationDB {
  if (!shared) {
    shared = openStationDb();
    if (typeof window !== "undefined") closeWhileHidden(shared);
  }
  return shared;
}

export class AlreadyServedError extends Error {}

/**
 * Queues a sealed ballot and marks its voter as served, in one transaction: the device can never
 * hold a ballot for a voter it does not remember, nor take a second one.
 */
export async function queueBallot(db: StationDB, item: QueuedBallot): Promise<void> {
  await db.transaction("rw", ["queue", "served"], async (tx) => {
    if (await tx.served.get(item.voter.id)) throw new AlreadyServedError(item.voter.id);
    await tx.served.add({ voterId: item.voter.id, stationId: item.stationId, ballotId: item.ballotId, at: item.queuedAt });
    await tx.queue.add(item);
  });
}
