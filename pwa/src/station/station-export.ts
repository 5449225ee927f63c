/**
 * The sealed queue on a USB stick, when the network never comes back before the count: one
 * file per station, each ballot still sealed (only the server opens it), with a SHA-256 over
 * the ballots so an edited file is refused whole. The ballots stay queued here: an import and
 * a later delivery of the same ballot count it once (its id).
 */
import { STATION_EXPORT_KIND, type ExportedBallot, type StationExport } from "@evoting/shared";
import { saveFile } from "../lib/save-file";
import { stationDb, type StationDB } from "./station-db";

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** The files for what is queued now, one per station, with a file name each. */
export async function exportQueue(db: StationDB = stationDb(), now = new Date()): Promise<{ name: string; file: StationExport }[]> {
  const queue = await db.queue.orderBy("queuedAt").toArray();
  const byStation = new Map<string, ExportedBallot[]>();
  for (const q of queue) {
    const list = byStation.get(q.stationId) ?? [];
    // Keys in the order the server's schema has them (the digest is over this JSON as written).
    list.push({ ballotId: q.ballotId, sealed: q.sealed, voter: { matricNumber: q.voter.matricNumber, name: q.voter.name } });
    byStation.set(q.stationId, list);
  }
  const files = [];
  for (const [stationId, ballots] of byStation) {
    const pkg = await db.packages.get(stationId);
    const name = pkg?.data.station.name ?? stationId;
    const sha256 = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(ballots))));
    const file: StationExport = { kind: STATION_EXPORT_KIND, v: 1, station: { _id: stationId, name }, exportedAt: now.toISOString(), ballots, sha256 };
    const stamp = now.toISOString().slice(0, 16).replace(/[:T]/g, "-");
    files.push({ name: `station-ballots-${name.replace(/[^A-Za-z0-9]+/g, "-")}-${stamp}.json`, file });
  }
  return files;
}

/** Saves one file through the browser's download. */
export const download = (name: string, file: StationExport) => saveFile(new Blob([JSON.stringify(file)], { type: "application/json" }), name);
