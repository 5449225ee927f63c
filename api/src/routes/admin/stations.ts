/**
 * /admin/stations: create polling stations, assign and remove their officers, revoke them, and
 * the ballots taken per station (results screen), and a station's exported ballot file.
 * Behind the admin gate: observers read only.
 */

/** A file of 10,000 sealed ballots is about 17 MB of JSON. */
export const STATION_FILE_LIMIT = 24 * 1024 * 1024;
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { assignOfficerSchema, createStationSchema, disputedDecisionSchema, messages, stationExportSchema, type StationImportReport } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { fail } from "../../http/errors.ts";
import { jsonBody } from "../../http/validate.ts";
import { audit } from "../../http/audit.ts";
import { decideHeld, deliverStationBallot, stationTarget } from "../../services/stations/station-ballots.ts";
import { listPositions } from "../../services/election/catalog.ts";
import { auditStationAnswer, auditUnreadable } from "../station-audit.ts";
import { sha256Hex } from "./results.ts";
import {
  assignOfficer,
  createStation,
  findStation,
  findStationSession,
  listStationDevices,
  listStations,
  markSessionLost,
  removeOfficer,
  revokeStation,
  stationTally,
} from "../../services/stations/stations.ts";

export function stationAdminRoutes(deps: Deps) {
  const { database, clock } = deps;

  const liveStation = async (id: string) => {
    const station = await findStation(database, id);
    if (!station) fail(404, messages.stationNotFound);
    if (station.revokedAt !== null) fail(409, messages.stationRevoked);
    return station;
  };

  return new Hono<AppEnv>()
    .get("/stations", async (c) => c.json(await listStations(database)))

    .get("/stations/ballots", async (c) => c.json(await stationTally(database)))

    .post("/stations", jsonBody(createStationSchema), async (c) => {
      const { name } = c.req.valid("json");
      const id = await createStation(database, name, clock.now());
      await audit(deps, c, { action: "station.create", target: `station:${id} "${name}"`, summary: `Created polling station "${name}"` });
      const station = (await listStations(database)).find((s) => s._id === id);
      return c.json({ ...station, message: messages.createStationSuccess }, 201);
    })

    .post("/stations/:id/officers", jsonBody(assignOfficerSchema), async (c) => {
      const station = await liveStation(c.req.param("id"));
      const result = await assignOfficer(database, station.id, c.req.valid("json").matricNumber, clock.now());
      if (result === "no-user") fail(404, messages.userNotFound);
      if (result === "not-staff") fail(400, messages.stationStaffOnly);
      const { officer } = result;
      await audit(deps, c, {
        action: "station.officer.assign",
        target: `station:${station.id} "${station.name}"`,
        summary: `Assigned ${officer.name} (${officer.matricNumber}, ${officer.role}) to polling station "${station.name}"`,
      });
      return c.json({ ...officer, message: messages.assignOfficerSuccess }, 201);
    })

    .delete("/stations/:id/officers/:userId", async (c) => {
      const station = await findStation(database, c.req.param("id"));
      if (!station) fail(404, messages.stationNotFound);
      const userId = c.req.param("userId");
      if (!(await removeOfficer(database, station.id, userId, clock.now()))) fail(404, messages.userNotFound);
      await audit(deps, c, {
        action: "station.officer.remove",
        target: `station:${station.id} "${station.name}"`,
        summary: `Removed officer user:${userId} from polling station "${station.name}"`,
      });
      return c.body(null, 204);
    })

    // A station's sealed queue from a USB stick: each ballot goes through the same delivery as
    // from its device (same checks, same exactly-once answer, same refusals and audit), with
    // the admin in place of an officer of the station. Only the grace period does not apply:
    // the file is how ballots cast in time reach the count when the network never came back.
    .post(
      "/stations/import",
      bodyLimit({ maxSize: STATION_FILE_LIMIT, onError: () => fail(413, messages.bodyTooLarge) }),
      jsonBody(stationExportSchema),
      async (c) => {
        const file = c.req.valid("json");
        // Over the ballots exactly as they came in the file (the parsed copy may order keys differently).
        const raw = (await c.req.json()) as { ballots: unknown };
        if (sha256Hex(JSON.stringify(raw.ballots)) !== file.sha256) fail(400, messages.stationFileTampered);
        const report = { counted: 0, refused: 0, alreadyIn: 0, unreadable: 0 };
        for (const ballot of file.ballots) {
          const result = await deliverStationBallot(deps, {
            sealed: ballot.sealed,
            idempotencyKey: ballot.ballotId,
            officerId: null,
            now: clock.now(),
            graceMs: Number.POSITIVE_INFINITY,
          });
          if (result.kind === "refused") {
            report.unreadable++;
            await auditUnreadable(deps, c, ballot.sealed.sessionId, result.message);
          } else if (!result.fresh) {
            report.alreadyIn++;
          } else {
            await auditStationAnswer(deps, c, result.station, result.answer, result.held);
            if (result.answer.outcomes.some((o) => o.counted)) report.counted++;
            else report.refused++;
          }
        }
        const message = `${report.counted} counted, ${report.refused} refused, ${report.alreadyIn} already delivered, ${report.unreadable} unreadable`;
        await audit(deps, c, {
          action: "station.import",
          target: stationTarget({ id: file.station._id, name: file.station.name }),
          summary: `Imported a ballot file of polling station "${file.station.name}" (${file.ballots.length} ballots): ${message}`,
        });
        return c.json({ ...report, message: `Station ballots imported: ${message}` } satisfies StationImportReport);
      },
    )

    // Every device a station was opened on, with what is held from lost ones.
    .get("/stations/devices", async (c) => {
      const titles = new Map((await listPositions(database.db)).map((p) => [p._id, p.title]));
      return c.json(await listStationDevices(database, titles));
    })

    // A lost device is a lost ballot box: what it sends from now on waits for the committee.
    .post("/stations/devices/:sessionId/lost", async (c) => {
      const session = await findStationSession(database, c.req.param("sessionId"));
      const station = session ? await findStation(database, session.stationId) : null;
      if (!session || !station) fail(404, messages.stationDeviceNotFound);
      if (!(await markSessionLost(database, session.id, clock.now()))) fail(409, messages.stationDeviceLost);
      await audit(deps, c, {
        action: "station.device.lost",
        target: stationTarget(station),
        summary: `Reported lost a device of polling station "${station.name}" (opened ${new Date(session.openedAt).toISOString()}): its ballots arriving from now on are held for the election committee`,
      });
      return c.json({ message: messages.stationDeviceLost });
    })

    // The committee accepts or rejects a lost device's held ballots, all of them at once.
    .post("/stations/devices/:sessionId/held", jsonBody(disputedDecisionSchema), async (c) => {
      const accept = c.req.valid("json").decision === "accept";
      const decided = await decideHeld(deps, c.req.param("sessionId"), accept, clock.now());
      if (!decided) fail(404, messages.stationDeviceNotFound);
      for (const answer of decided.fresh) if (accept) await auditStationAnswer(deps, c, decided.station, answer);
      const counted = decided.answers.filter((a) => a.outcomes.some((o) => o.counted)).length;
      const message = accept
        ? `${decided.answers.length} held ballots accepted: ${counted} counted, ${decided.answers.length - counted} refused`
        : `${decided.answers.length} held ballots rejected`;
      await audit(deps, c, {
        action: accept ? "station.held.accept" : "station.held.reject",
        target: stationTarget(decided.station),
        summary: `The election committee ${accept ? "accepted" : "rejected"} the ballots held from a lost device of polling station "${decided.station.name}": ${message}`,
      });
      return c.json({ message: `${message.charAt(0).toUpperCase()}${message.slice(1)}` });
    })

    .post("/stations/:id/revoke", async (c) => {
      const station = await liveStation(c.req.param("id"));
      await revokeStation(database, station.id, clock.now());
      await audit(deps, c, {
        action: "station.revoke",
        target: `station:${station.id} "${station.name}"`,
        summary: `Revoked polling station "${station.name}": its devices' ballots are refused from now on`,
      });
      return c.json({ message: messages.revokeStationSuccess });
    });
}
